import { RxkubeError } from '../errors.js';
import type { KubeEvent } from './eventSink.js';

/**
 * The {@link eventRecorder} could not write an Event: the API server refused it (4xx: not
 * retried) or kept failing (retried `maxTries` times). The Event is dropped (events are best
 * effort, as in client-go); the controller is not affected.
 *
 * @example
 * ```ts
 * recorder.errors$.subscribe((e) => console.warn(e.message, e.event.reason));
 * ```
 */
export class EventRecordError extends RxkubeError {
  /** The Event (or series update) that was not written. */
  readonly event: KubeEvent;

  constructor(event: KubeEvent, tries: number, cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    const about = `${event.regarding.kind ?? '?'} ${event.regarding.namespace ? `${event.regarding.namespace}/` : ''}${event.regarding.name ?? '?'}`;
    super(
      'EventRecordError',
      `could not write Event ${event.metadata.namespace}/${event.metadata.name} (${event.reason} on ${about}) after ${tries} ${tries === 1 ? 'try' : 'tries'}; dropped it: ${why}`,
      { cause },
    );
    this.event = event;
  }
}
