/**
 * What the reflector tells the delta FIFO (client-go's calls on its `Store` interface, as values).
 * - `add` / `update` / `delete`: a watch ADDED / MODIFIED / DELETED event.
 * - `replace`: a complete list (a relist, or the end of a streaming list), at `resourceVersion`.
 * - `bookmark`: the server has sent every change up to `resourceVersion`; nothing to store.
 * - `resync`: queue a `Sync` for every known key with nothing queued (produced by the informer's
 *   resync timer, merged into the same stream).
 *
 * @example
 * ```ts
 * const events$: Observable<ReflectorEvent<V1Pod>> = of({ type: 'add', object: pod });
 * ```
 */
export type ReflectorEvent<T> =
  | { readonly type: 'add'; readonly object: T }
  | { readonly type: 'update'; readonly object: T }
  | { readonly type: 'delete'; readonly object: T }
  | { readonly type: 'replace'; readonly items: ReadonlyArray<T>; readonly resourceVersion: string }
  | { readonly type: 'bookmark'; readonly resourceVersion: string }
  | { readonly type: 'resync' };
