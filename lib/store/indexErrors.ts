import { causeMessage, RxkubeError } from '../errors.js';
import { describeValue } from '../meta/describeValue.js';

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
    const reason = causeMessage(cause);
    super(
      'IndexFunctionError',
      `${resource}: ${what} failed on ${key} (${reason}); the change was not applied (the store keeps ` +
        `the previous state of ${key}) and the informer goes on; fix the index function`,
      { cause },
    );
    this.indexName = indexName;
    this.key = key;
  }
}

/**
 * An index function returned something other than an array of strings (`undefined`, a bare
 * string, numbers). client-go's `IndexFunc` returns `[]string`; taken as it was, a bare string
 * would be filed character by character and a number would never match a string lookup. Thrown
 * before anything is written, so the store is unchanged.
 *
 * @example
 * ```ts
 * createStore({ indexers: { byNode: (p) => p.spec.nodeName } }).add(pod); // throws: return [p.spec.nodeName]
 * ```
 */
export class InvalidIndexValuesError extends RxkubeError {
  /** The index whose function returned it. */
  readonly indexName: string;

  constructor(indexName: string, got: unknown) {
    super(
      'InvalidIndexValuesError',
      `index function ${JSON.stringify(indexName)} returned ${describeValues(got)}; an index function must return an array of strings (e.g. [value], or [] for none)`,
    );
    this.indexName = indexName;
  }
}

function describeValues(got: unknown): string {
  const one = (v: unknown): string => (v === undefined || v === null ? String(v) : `${typeof v} ${describeValue(v)}`);
  if (Array.isArray(got)) return `an array holding ${one(got.find((v) => typeof v !== 'string'))}`;
  if (typeof got === 'string') return `the string ${JSON.stringify(got)} instead of [${JSON.stringify(got)}]`;
  return one(got);
}

/**
 * An indexer given to `createStore`, `addIndexers` or an informer's `indexers` option is not a
 * function (or the indexers are not an object). Thrown before anything is added.
 *
 * @example
 * ```ts
 * store.addIndexers({ byNode: 'spec.nodeName' }); // throws: give (p) => [p.spec.nodeName]
 * ```
 */
export class InvalidIndexerError extends RxkubeError {
  /** The index name at fault (`''` when the indexers themselves are not an object). */
  readonly indexName: string;

  constructor(indexName: string, got: unknown) {
    const what = got === null ? 'null' : `${typeof got}${typeof got === 'function' ? '' : ` ${describeValue(got)}`}`;
    super(
      'InvalidIndexerError',
      indexName === ''
        ? `indexers must be an object of index name -> index function (got ${what})`
        : `indexer ${JSON.stringify(indexName)} is not a function (got ${what}); an indexer is (obj) => string[]`,
    );
    this.indexName = indexName;
  }
}

/**
 * Checks indexers before any is used: an object whose values are functions.
 *
 * @example
 * ```ts
 * checkIndexers({ byNode: (p: V1Pod) => [p.spec?.nodeName ?? ''] }); // fine
 * ```
 */
export function checkIndexers(indexers: unknown): void {
  if (typeof indexers !== 'object' || indexers === null || Array.isArray(indexers)) {
    throw new InvalidIndexerError('', indexers);
  }
  for (const [name, fn] of Object.entries(indexers)) {
    if (typeof fn !== 'function') throw new InvalidIndexerError(name, fn);
  }
}
