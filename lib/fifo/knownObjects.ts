/**
 * What the delta FIFO may ask of the consumer's store (client-go's `KeyListerGetter`): the objects
 * it already knows. The informer passes a live view of its indexer. The FIFO reads it only while it
 * handles a `delete` (is the key known?), a `replace` (which known keys are missing from the list?)
 * and a `resync` (which keys to `Sync`), never in between, so a consumer that applies each pop to its
 * store before the next event arrives keeps the two consistent, as client-go does.
 *
 * @example
 * ```ts
 * const store = new Map<string, V1Pod>();
 * const knownObjects: KnownObjects<V1Pod> = {
 *   getByKey: (key) => store.get(key),
 *   listKeys: () => store.keys(),
 * };
 * events$.pipe(deltaFifo({ knownObjects }));
 * ```
 */
export interface KnownObjects<T> {
  /** The object the consumer holds under `key`, or `undefined`. */
  getByKey(key: string): T | undefined;
  /** Every key the consumer holds. Iterated once per `replace` / `resync`. */
  listKeys(): Iterable<string>;
}
