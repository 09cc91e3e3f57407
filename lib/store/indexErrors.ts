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

/**
 * An index function threw while the informer stored or removed an object (S8). The write was
 * all-or-nothing, so the store stays consistent: a new object is not stored, an updated one keeps
 * its previous version, a deleted one stays. The informer reports it on `errors$` and goes on.
 *
 * @example
 * ```ts
 * pods.errors$.subscribe((e) => {
 *   if (e instanceof IndexFunctionError) console.warn(e.indexName, e.key, e.cause);
 * });
 * ```
 */
export class IndexFunctionError extends RxkubeError {
  /** The index whose function threw (`''` if it could not be found again). */
  readonly indexName: string;
  /** The key of the object being written. */
  readonly key: string;

  constructor(resource: string, indexName: string, key: string, cause: unknown) {
    const what = indexName === '' ? 'an index function' : `index function ${JSON.stringify(indexName)}`;
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      'IndexFunctionError',
      `${resource}: ${what} threw on ${key} (${reason}); the change was not applied (the store keeps ` +
        `the previous state of ${key}) and the informer goes on; fix the index function`,
      { cause },
    );
    this.indexName = indexName;
    this.key = key;
  }
}
