// When an informer on replayListWatch has seen a whole recording, on virtual time. Each recorded
// relist (a 410 ERROR, or a list the recorder made for another reason) makes the informer's
// reflector relist after its backoff; the last ones may land well after the recording's end. The
// bound: the end plus the longest delay of every relist (the backoff's growth and cap, full jitter).
import { defaultBackoffOptions, type BackoffOptions } from '../../reflector/backoff.js';
import type { Recording } from './recording.js';
import { streamEntries, streamIndex, type StreamRef } from './timeline.js';

/**
 * Options of {@link replaySettleTime}.
 *
 * @example
 * ```ts
 * const options: ReplaySettleOptions = { stream: builtInResources.pods, backoff: { initialMs: 10 } };
 * ```
 */
export interface ReplaySettleOptions {
  /** Which stream of the recording (index or resource), as given to `replayListWatch`. Default 0. */
  readonly stream?: StreamRef;
  /** The informer's reflector backoff, if it was given one (`informer(lw, { reflector: { backoff } })`). */
  readonly backoff?: BackoffOptions;
}

/** How many times the reflector relists after the first list: once per ERROR, once per list not right after one. */
function relists(recording: Recording, stream: number): number {
  const entries = streamEntries(recording, stream);
  const first = entries.findIndex((e) => e.type === 'list');
  let count = 0;
  for (let i = first + 1; first >= 0 && i < entries.length; i++) {
    const e = entries[i];
    const afterError = entries[i - 1].type === 'event' && (entries[i - 1] as { event: { type: string } }).event.type === 'ERROR';
    if ((e.type === 'event' && e.event.type === 'ERROR') || (e.type === 'list' && !afterError)) count++;
  }
  return count;
}

/**
 * The virtual time (ms from the informer's start) by which an informer on
 * `replayListWatch(recording, { stream })` has seen everything the recording holds: its end plus
 * the longest its reflector can wait before each relist the recording makes it do. Stop the
 * informer there, not earlier: its own timers never run out, and a relist near the end lands up to
 * twice the backoff after it.
 *
 * @example
 * ```ts
 * ts.run(({ flush }) => {
 *   const inf = informer(replayListWatch<V1Pod>(recording, { stream: builtInResources.pods }));
 *   inf.start();
 *   ts.schedule(() => void inf.stop(), replaySettleTime(recording, { stream: builtInResources.pods }));
 *   flush();
 * });
 * ```
 */
export function replaySettleTime(recording: Recording, options: ReplaySettleOptions = {}): number {
  const stream = streamIndex(recording, options.stream ?? 0);
  const { initialMs, factor, jitter, capMs } = { ...defaultBackoffOptions, ...options.backoff };
  const entries = streamEntries(recording, stream);
  const end = recording.endedAt ?? (entries.length > 0 ? entries[entries.length - 1].t : 0);
  let wait = 0;
  let delay = initialMs;
  for (let i = relists(recording, stream); i > 0; i--) {
    wait += Math.min(delay, capMs) * (1 + jitter);
    delay *= factor;
  }
  return end + Math.ceil(wait);
}
