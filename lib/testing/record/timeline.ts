import { RxkubeError } from '../../errors.js';
import type { Resource } from '../../listwatch/resource.js';
import { resourceVersionOf, type RecordedObject, type RecordedTraffic, type Recording } from './recording.js';

/**
 * Which stream of a recording: its index, or its resource (the first stream of that group and plural).
 *
 * @example
 * ```ts
 * const which: StreamRef = { group: '', version: 'v1', plural: 'pods', namespaced: true };
 * ```
 */
export type StreamRef = number | Resource;

/** The index of `ref` in `recording`; throws a clear error for a stream it does not hold. */
export function streamIndex(recording: Recording, ref: StreamRef): number {
  const i = typeof ref === 'number' ? ref : recording.streams.findIndex((s) => s.resource.group === ref.group && s.resource.plural === ref.plural);
  if (i < 0 || i >= recording.streams.length) {
    const names = recording.streams.map((s) => (s.resource.group ? `${s.resource.plural}.${s.resource.group}` : s.resource.plural));
    throw new RxkubeError('RecordingFormatError', `the recording has no stream ${typeof ref === 'number' ? `#${ref}` : ref.plural}; it has ${names.join(', ') || 'none'}`);
  }
  return i;
}

/** The list and event entries of one stream, in order. */
export const streamEntries = (recording: Recording, stream: number): ReadonlyArray<RecordedTraffic> => recording.entries.filter((e) => e.stream === stream);

const keyOf = (o: RecordedObject): string => {
  const meta = (o['metadata'] ?? {}) as { namespace?: string; name?: string };
  return `${meta.namespace ?? ''}/${meta.name ?? ''}`;
};

/**
 * The state a stream's recording shows just after entry `index`: the last list at or before it,
 * with the events after that list applied, and the resourceVersion of the last entry applied.
 *
 * @example
 * ```ts
 * stateAfter(streamEntries(rec, 0), 5).items.length;
 * ```
 */
export function stateAfter(entries: ReadonlyArray<RecordedTraffic>, index: number): { items: RecordedObject[]; resourceVersion: string } {
  let from = -1;
  for (let i = Math.min(index, entries.length - 1); i >= 0; i--) {
    if (entries[i].type === 'list') {
      from = i;
      break;
    }
  }
  if (from < 0) return { items: [], resourceVersion: '' };
  const base = entries[from] as Extract<RecordedTraffic, { type: 'list' }>;
  const objects = new Map(base.items.map((o) => [keyOf(o), o]));
  let rv = base.resourceVersion;
  for (let i = from + 1; i <= index && i < entries.length; i++) {
    const e = entries[i];
    if (e.type !== 'event' || e.event.type === 'MALFORMED' || e.event.type === 'ERROR') continue;
    rv = resourceVersionOf(e.event.object) ?? rv;
    if (e.event.type === 'ADDED' || e.event.type === 'MODIFIED') objects.set(keyOf(e.event.object), e.event.object);
    else if (e.event.type === 'DELETED') objects.delete(keyOf(e.event.object));
  }
  return { items: [...objects.values()], resourceVersion: rv };
}

/** The index of the last entry recorded at or before `t` (ms), or -1. */
export function indexAtTime(entries: ReadonlyArray<RecordedTraffic>, t: number): number {
  let i = -1;
  while (i + 1 < entries.length && entries[i + 1].t <= t) i++;
  return i;
}

/** The index of the last entry that left the stream at `rv` (a list's or an event object's), or undefined. */
export function indexOfResourceVersion(entries: ReadonlyArray<RecordedTraffic>, rv: string): number | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.type === 'list' ? e.resourceVersion === rv : e.event.type !== 'MALFORMED' && e.event.type !== 'ERROR' && resourceVersionOf(e.event.object) === rv) return i;
  }
  return undefined;
}
