import type { Observable } from 'rxjs';

/**
 * How far behind a handler is: `queued` notifications not yet handled (waiting in its buffer, being
 * replayed to it, or in flight), and `oldestAgeMs`, the age of the oldest of them on the informer's
 * scheduler clock (0 when none).
 *
 * @example
 * ```ts
 * const { queued, oldestAgeMs } = registration.lag();
 * if (oldestAgeMs > 5000) console.warn(`handler is ${queued} notifications / ${oldestAgeMs} ms behind`);
 * ```
 */
export interface HandlerLag {
  readonly queued: number;
  readonly oldestAgeMs: number;
}

/**
 * A bounded handler buffer: at most `size` notifications wait for the handler (the one in flight
 * does not count). When one more arrives:
 * - `'error'`: the handler is removed from the informer and a {@link HandlerBufferOverflowError} is
 *   reported (on the informer's `errors$`, and to an Observer's `error`).
 * - `'dropAndResync'`: every waiting notification and the new one are dropped; once the handler is
 *   free it is brought up to date with the store as it is then: an `add` for each object it was not
 *   told of, an `update(last told, current)` for each object that changed since it was last told,
 *   a `delete` (with a `DeletedFinalStateUnknown`) for each object it was told of that is gone. Then
 *   it goes on with new notifications. Intermediate states are lost, the final state is not.
 *
 * @example
 * ```ts
 * informer.addEventHandler(h, { buffer: { size: 10_000, overflow: 'dropAndResync' } });
 * ```
 */
export interface BufferOptions {
  readonly size: number;
  readonly overflow: 'error' | 'dropAndResync';
}

/**
 * Options of `addEventHandler`.
 * - `resyncPeriod` (ms): how often this handler gets an `update(obj, obj)` for every object. 0 never;
 *   under 1000 becomes 1000. Unset: the informer's `resyncPeriod` option. Added to a running informer,
 *   a period shorter than the informer's resync check period becomes that period; added before
 *   start, it shortens the check period instead (client-go's `AddEventHandlerWithResyncPeriod`).
 * - `buffer`: unbounded when unset; see {@link BufferOptions}.
 * - `name`: used in error messages.
 *
 * @example
 * ```ts
 * informer.addEventHandler(h, { resyncPeriod: 30_000, buffer: { size: 1000, overflow: 'error' }, name: 'pods' });
 * ```
 */
export interface AddEventHandlerOptions {
  readonly resyncPeriod?: number;
  readonly buffer?: BufferOptions;
  readonly name?: string;
}

/**
 * What `addEventHandler` returns (client-go's `ResourceEventHandlerRegistration`).
 * - `hasSynced()`: true once the informer has synced and this handler has handled every
 *   notification up to that point (for a handler added later: the adds of the objects that existed).
 * - `synced$`: the current value to every subscriber (`true` at once after the sync), then `true`
 *   when synced; completes when the handler is removed.
 * - `lag()` / `lag$`: see {@link HandlerLag}; `lag$` emits the current lag on subscription and
 *   whenever the handler's buffer changes, and completes when the handler is removed.
 * - `remove()`: stops delivering to this handler, drops what is queued for it; idempotent.
 * - `resyncPeriod`: the period this handler actually resyncs at (ms, 0 = never).
 *
 * @example
 * ```ts
 * const reg = informer.addEventHandler({ add: (pod) => console.log(pod.metadata?.name) });
 * await firstValueFrom(reg.synced$.pipe(filter(Boolean)));
 * reg.remove();
 * ```
 */
export interface HandlerRegistration {
  hasSynced(): boolean;
  readonly synced$: Observable<boolean>;
  lag(): HandlerLag;
  readonly lag$: Observable<HandlerLag>;
  remove(): void;
  readonly resyncPeriod: number;
  readonly removed: boolean;
}
