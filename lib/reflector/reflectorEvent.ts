/**
 * What the reflector tells the delta FIFO (client-go's calls on its `Store` interface, as values).
 * A periodic resync is not among them: it is each handler's own replay of the store
 * (lib/informer/processorListener.ts), not an event of the list and watch.
 * - `add` / `update` / `delete`: a watch ADDED / MODIFIED / DELETED event.
 * - `replace`: a complete list (a relist, or the end of a streaming list), at `resourceVersion`.
 * - `bookmark`: the server has sent every change up to `resourceVersion`; nothing to store.
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
  | { readonly type: 'bookmark'; readonly resourceVersion: string };
