import { RxkubeError } from '../errors.js';
import type { KubeEvent } from './eventSink.js';

/**
 * The {@link eventRecorder} could not write an Event: the API server refused it (4xx: not
 * retried) or kept failing (retried `maxTries` times), or `publish` was given something that is
 * not an {@link EventInput} (then `event` is undefined and `input` is what was given: nothing was
 * written). The Event is dropped (events are best effort, as in client-go); the controller is not
 * affected.
 *
 * @example
 * ```ts
 * recorder.errors$.subscribe((e) => console.warn(e.message, e.event?.reason ?? e.input));
 * ```
 */
export class EventRecordError extends RxkubeError {
  /** The Event (or series update) that was not written; undefined when the input was refused. */
  readonly event: KubeEvent | undefined;
  /** What `publish` was given, when it was refused as invalid; undefined otherwise. */
  readonly input: unknown;

  constructor(event: KubeEvent, tries: number, cause: unknown);
  constructor(event: undefined, tries: 0, cause: string, input: unknown);
  constructor(event: KubeEvent | undefined, tries: number, cause: unknown, input?: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    if (!event) {
      super('EventRecordError', `refused to publish an Event: ${why}; wrote nothing`);
    } else {
      const about = `${event.regarding.kind ?? '?'} ${event.regarding.namespace ? `${event.regarding.namespace}/` : ''}${event.regarding.name ?? '?'}`;
      super(
        'EventRecordError',
        `could not write Event ${event.metadata.namespace}/${event.metadata.name} (${event.reason} on ${about}) after ${tries} ${tries === 1 ? 'try' : 'tries'}; dropped it: ${why}`,
        { cause },
      );
    }
    this.event = event;
    this.input = input;
  }
}
