import type { ReflectorError } from './reflectorError.js';

/**
 * What the reflector is doing now, on its `status$` stream.
 * - `idle`: not subscribed (or unsubscribed).
 * - `listing`: a LIST at `resourceVersion` is in flight.
 * - `watchListing`: a streaming list (watch-list) from `resourceVersion` is in flight.
 * - `watching`: a WATCH from `resourceVersion` is open.
 * - `backingOff`: waiting `delayMs` before the next attempt, because of `reason` (none after a
 *   clean end of a ListAndWatch: client-go waits one backoff step after every one).
 *
 * @example
 * ```ts
 * r.status$.pipe(filter((s) => s.state === 'backingOff')).subscribe((s) => console.log(`retry in ${s.delayMs} ms`));
 * ```
 */
export type ReflectorStatus =
  | { readonly state: 'idle' }
  | { readonly state: 'listing'; readonly resourceVersion: string }
  | { readonly state: 'watchListing'; readonly resourceVersion: string }
  | { readonly state: 'watching'; readonly resourceVersion: string }
  | { readonly state: 'backingOff'; readonly delayMs: number; readonly reason?: ReflectorError };
