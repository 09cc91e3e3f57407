import { asyncScheduler, Subscription, type Observable, type SchedulerLike } from 'rxjs';
import { longTimer } from '../timers/longTimer.js';

/**
 * Options of `waitForCacheSync`: give up after `timeout` ms or when `signal` aborts. Giving up
 * RESOLVES `false` (as client-go's `WaitForCacheSync` returns false when its stop channel closes); it
 * never rejects. The informer keeps running and retrying; why it has not synced is on `errors$` (the
 * factory's too) and in the log (see the `logger` option).
 *
 * @example
 * ```ts
 * if (!(await pods.waitForCacheSync({ timeout: 30_000 }))) process.exit(1); // the log says why
 * await factory.waitForCacheSync({ signal: AbortSignal.timeout(30_000) });
 * ```
 */
export interface WaitForCacheSyncOptions {
  /** Resolve `false` after this many ms (on the informer's scheduler). Unset: no limit. */
  readonly timeout?: number;
  /** Resolve `false` when this signal aborts (at once if it already has). */
  readonly signal?: AbortSignal;
}

/**
 * Resolves `true` when `synced$` emits `true`, `false` when it completes without, when the timeout
 * passes on `scheduler` or when the signal aborts, whichever comes first; cleans up the rest.
 *
 * @example
 * ```ts
 * const ok = await waitForSync(informer.synced$, { timeout: 10_000 }, asyncScheduler);
 * ```
 */
export function waitForSync(
  synced$: Observable<boolean>,
  options: WaitForCacheSyncOptions = {},
  scheduler: SchedulerLike = asyncScheduler,
): Promise<boolean> {
  const { timeout, signal } = options;
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const cleanup = new Subscription();
    let done = false;
    const finish = (result: boolean): void => {
      if (done) return;
      done = true;
      cleanup.unsubscribe();
      resolve(result);
    };
    // synced$ may answer synchronously: then nothing else is armed.
    cleanup.add(synced$.subscribe({ next: (v) => v && finish(true), complete: () => finish(false) }));
    if (done) return;
    if (timeout !== undefined) cleanup.add(longTimer(timeout, scheduler).subscribe(() => finish(false)));
    if (signal) {
      const onAbort = (): void => finish(false);
      signal.addEventListener('abort', onAbort, { once: true });
      cleanup.add(() => signal.removeEventListener('abort', onAbort));
    }
  });
}
