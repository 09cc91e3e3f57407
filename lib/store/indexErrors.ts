import { RxkubeError } from '../errors.js';

/**
 * A read named an index the store does not have (`byIndex`, `indexKeys`, `index`,
 * `listIndexFuncValues`). client-go returns `Index with name %s does not exist`.
 *
 * @example
 * ```ts
 * try { store.byIndex('byNode', 'node-1'); } catch (e) { if (e instanceof IndexNotFoundError) console.log(e.indexName); }
 * ```
 */
export class IndexNotFoundError extends RxkubeError {
  /** The index name that was asked for. */
  readonly indexName: string;

  constructor(indexName: string) {
    super('IndexNotFoundError', `index with name ${JSON.stringify(indexName)} does not exist`);
    this.indexName = indexName;
  }
}

/**
 * `addIndexers` was given an index name the store already has (client-go: `indexer conflict`).
 * Nothing is added.
 *
 * @example
 * ```ts
 * try { writer.addIndexers({ namespace: fn }); } catch (e) { if (e instanceof IndexConflictError) console.log(e.indexNames); }
 * ```
 */
export class IndexConflictError extends RxkubeError {
  /** The clashing names. */
  readonly indexNames: ReadonlyArray<string>;

  constructor(indexNames: ReadonlyArray<string>) {
    super(
      'IndexConflictError',
      `indexer conflict: ${indexNames.map((n) => JSON.stringify(n)).join(', ')} already exist; no indexer added`,
    );
    this.indexNames = indexNames;
  }
}

/**
 * A write was refused and the store is unchanged: a {@link StoreWriter} written after `complete()`
 * or from inside one of its own batches, or a {@link StoreMutator} used after its batch ended.
 *
 * @example
 * ```ts
 * writer.complete();
 * try { writer.add(pod); } catch (e) { if (e instanceof StoreWriteError) console.log(e.message); }
 * ```
 */
export class StoreWriteError extends RxkubeError {
  constructor(reason: string) {
    super('StoreWriteError', `store write refused: ${reason}`);
  }
}
