// A work queue's "a key is ready" signal, for the one consumer that pulls keys with tryGet()
// instead of subscribing get$() for each (the controller's workers). Internal: not exported.

type SetReadyListener = (listener: (() => void) | undefined) => void;

const hooks = new WeakMap<object, SetReadyListener>();

/**
 * Registers how to set the ready listener of `queue` (done by `workQueue()`).
 *
 * @internal
 * @example
 * ```ts
 * registerReadyHook(queue, core.setReadyListener);
 * ```
 */
export function registerReadyHook(queue: object, set: SetReadyListener): void {
  hooks.set(queue, set);
}

/**
 * Calls `listener` (synchronously) whenever `queue` has ready keys that no `get$` subscriber took:
 * after an add, a done that queues a dirty key again, a delay that ends. It then pulls them with
 * `tryGet()`. One listener per queue; `undefined` removes it. Answers false for a queue not made by
 * `workQueue()`, whose consumer must then use `get$()`.
 *
 * @internal
 * @example
 * ```ts
 * onQueueReady(queue, () => { for (let item = queue.tryGet(); item; item = queue.tryGet()) handle(item); });
 * ```
 */
export function onQueueReady(queue: object, listener: (() => void) | undefined): boolean {
  const set = hooks.get(queue);
  set?.(listener);
  return set !== undefined;
}
