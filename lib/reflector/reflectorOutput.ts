import type { ReflectorBurst } from './reflectorBurst.js';
import type { ReflectorError } from './reflectorError.js';
import type { ReflectorStatus } from './reflectorStatus.js';

/**
 * What one run of the reflector (one subscription of {@link reflect}) tells its subscriber, in
 * order, on one stream: bursts of events, its status, and the errors it recovered from. Nothing is
 * shared between subscriptions.
 * - `events`: one burst (a list's `replace`, or the events of one watch chunk), never empty, and
 *   `resourceVersions`: every last-sync RV the burst moved to, in order (client-go's
 *   `UpdateResourceVersion` calls); the last one is the RV after the burst. Empty when it moved none.
 * - `status`: what the run is doing now (listing, watching, backing off and why).
 * - `error`: an error met and what was done about it (the reflector's `errors$` carries the same).
 *
 * @example
 * ```ts
 * reflector(lw).outputs$.subscribe((out) => {
 *   if (out.type === 'events') fifo.push(out.events);
 *   else if (out.type === 'error') console.warn(out.error.message);
 * });
 * ```
 */
export type ReflectorOutput<T> =
  | {
      readonly type: 'events';
      readonly events: ReflectorBurst<T>;
      readonly resourceVersions: ReadonlyArray<string>;
    }
  | { readonly type: 'status'; readonly status: ReflectorStatus }
  | { readonly type: 'error'; readonly error: ReflectorError };
