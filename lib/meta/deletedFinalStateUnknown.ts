/**
 * A tombstone: the object was deleted while the informer was not watching (found missing on a
 * relist), so `obj` is the last state the informer knew, which may be stale. Delete handlers receive
 * either the object or one of these, as in client-go.
 *
 * @example
 * ```ts
 * informer.addEventHandler({
 *   delete: (obj) => {
 *     const pod = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
 *   },
 * });
 * ```
 */
export class DeletedFinalStateUnknown<T = unknown> {
  constructor(
    /** The store key of the deleted object. */
    readonly key: string,
    /** The last known state of the object. */
    readonly obj: T,
  ) {
    Object.freeze(this);
  }
}
