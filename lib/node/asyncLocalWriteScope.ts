import { AsyncLocalStorage } from 'node:async_hooks';
import type { WriteScope } from '../write/writeScope.js';
import type { WriteTracker } from '../write/writeTracker.js';

/**
 * The {@link WriteScope} of Node (and Bun, Deno): an `AsyncLocalStorage` holding the write
 * tracker of the reconcile that is running, through every await, timer and callback it starts.
 * rxkube's Node entry installs it when loaded. On Node 20 the first reconcile run in it turns on
 * Node's promise hooks for the process (each `await` then costs about 0.4 µs more on this
 * project's machine); Node 24's AsyncContextFrame makes that nearly free.
 *
 * @internal
 * @example
 * ```ts
 * setWriteScope(asyncLocalWriteScope()); // what lib/node.ts does
 * ```
 */
export function asyncLocalWriteScope(): WriteScope {
  const storage = new AsyncLocalStorage<WriteTracker>();
  return {
    run: (tracker, fn, arg) => storage.run(tracker, fn, arg),
    current: () => storage.getStore(),
  };
}
