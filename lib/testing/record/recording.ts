import { readFile } from 'node:fs/promises';
import { RxkubeError } from '../../errors.js';
import type { Resource } from '../../listwatch/resource.js';

/**
 * One recorded list-and-watch stream: a resource, and the namespace and selectors it was watched with.
 *
 * @example
 * ```ts
 * const stream: RecordedStream = { resource: { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true }, namespace: 'shop' };
 * ```
 */
export interface RecordedStream {
  readonly resource: Resource;
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

/**
 * What a recording blanked, as its header says: for objects of `kind`, the values at `fields`
 * (keys kept, values `""`).
 *
 * @example
 * ```ts
 * const r: Redaction = { kind: 'Secret', fields: ['data', 'stringData'] };
 * ```
 */
export interface Redaction {
  readonly kind: string;
  readonly fields: ReadonlyArray<string>;
}

/**
 * A recorded object (JSON as the server sent it).
 *
 * @example
 * ```ts
 * const name = (o: RecordedObject) => (o['metadata'] as { name?: string } | undefined)?.name;
 * ```
 */
export type RecordedObject = { readonly [field: string]: unknown };

/**
 * One line of a recording (JSON lines). `t` is milliseconds since the recording started.
 * - `header`: first line; the format, when it started, the streams (index = `stream` below), and
 *   what was blanked (`redacted`; absent when nothing was).
 * - `list`: a whole list (all its pages) of one stream, and its resourceVersion.
 * - `event`: one watch event of one stream, as received (`MALFORMED` keeps the line).
 * - `end`: last line, written by `stop()`.
 *
 * @example
 * ```ts
 * const e: RecordingEntry = { type: 'event', stream: 0, t: 1200, event: { type: 'MODIFIED', object: pod } };
 * ```
 */
export type RecordingEntry =
  | {
      readonly type: 'header';
      readonly format: typeof RECORDING_FORMAT;
      readonly version: 1;
      readonly startedAt: string;
      readonly streams: ReadonlyArray<RecordedStream>;
      readonly redacted?: ReadonlyArray<Redaction>;
    }
  | { readonly type: 'list'; readonly stream: number; readonly t: number; readonly resourceVersion: string; readonly items: ReadonlyArray<RecordedObject> }
  | { readonly type: 'event'; readonly stream: number; readonly t: number; readonly event: RecordedEvent }
  | { readonly type: 'end'; readonly t: number };

/**
 * A recorded watch event.
 *
 * @example
 * ```ts
 * const e: RecordedEvent = { type: 'DELETED', object: { metadata: { name: 'a', namespace: 'shop', resourceVersion: '12' } } };
 * ```
 */
export type RecordedEvent =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'; readonly object: RecordedObject }
  | { readonly type: 'MALFORMED'; readonly line: string };

/**
 * A list or event line of a recording.
 *
 * @example
 * ```ts
 * const events = recording.entries.filter((e): e is Extract<RecordedTraffic, { type: 'event' }> => e.type === 'event');
 * ```
 */
export type RecordedTraffic = Extract<RecordingEntry, { type: 'list' | 'event' }>;

/**
 * A parsed recording: its streams and its traffic in the order recorded.
 *
 * @example
 * ```ts
 * const rec: Recording = await readRecording('pods.jsonl');
 * rec.entries.filter((e) => e.type === 'event').length;
 * ```
 */
export interface Recording {
  readonly startedAt: string;
  readonly streams: ReadonlyArray<RecordedStream>;
  readonly entries: ReadonlyArray<RecordedTraffic>;
  /** When `stop()` was called (ms since the start); undefined for a recording cut short. */
  readonly endedAt?: number;
  /** What the recorder blanked (Secrets' values, see `recordTraffic`'s `redactSecrets`); absent when nothing. */
  readonly redacted?: ReadonlyArray<Redaction>;
}

/**
 * The `format` of a recording's header line.
 *
 * @example
 * ```ts
 * JSON.parse(firstLine).format === RECORDING_FORMAT; // 'rxkube-traffic'
 * ```
 */
export const RECORDING_FORMAT = 'rxkube-traffic';

const isObject = (v: unknown): v is { [k: string]: unknown } => typeof v === 'object' && v !== null && !Array.isArray(v);

function badRecording(line: number, why: string): RxkubeError {
  return new RxkubeError('RecordingFormatError', `not an rxkube traffic recording: line ${line}: ${why}`);
}

function checkEntry(v: unknown, line: number, streams: number): RecordedTraffic | { type: 'end'; t: number } {
  if (!isObject(v)) throw badRecording(line, 'not a JSON object');
  if (v['type'] === 'end' && typeof v['t'] === 'number') return { type: 'end', t: v['t'] };
  if (typeof v['t'] !== 'number' || typeof v['stream'] !== 'number' || v['stream'] < 0 || v['stream'] >= streams) throw badRecording(line, 'no time or no known stream');
  if (v['type'] === 'list' && typeof v['resourceVersion'] === 'string' && Array.isArray(v['items'])) return v as RecordedTraffic;
  if (v['type'] === 'event' && isObject(v['event']) && typeof v['event']['type'] === 'string') return v as RecordedTraffic;
  throw badRecording(line, `unknown entry ${JSON.stringify(v['type'])}`);
}

/**
 * Parses a recording's text (JSON lines, as {@link recordTraffic} writes). A recording cut short
 * (no `end` line, a last line half written) keeps what was complete.
 *
 * @throws RxkubeError `RecordingFormatError` when the text is not a recording.
 * @example
 * ```ts
 * const rec = parseRecording(readFileSync('pods.jsonl', 'utf8'));
 * ```
 */
export function parseRecording(text: string): Recording {
  const lines = text.split('\n');
  let header: unknown;
  try {
    header = JSON.parse(lines[0] ?? '');
  } catch {
    throw badRecording(1, 'the first line is not JSON');
  }
  if (!isObject(header) || header['type'] !== 'header' || header['format'] !== RECORDING_FORMAT || !Array.isArray(header['streams'])) {
    throw badRecording(1, `no ${RECORDING_FORMAT} header`);
  }
  if (header['version'] !== 1) throw badRecording(1, `version ${String(header['version'])} is not supported (1 is)`);
  const streams = header['streams'] as RecordedStream[];
  const entries: RecordedTraffic[] = [];
  let endedAt: number | undefined;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(lines[i]);
    } catch {
      if (i === lines.length - 1 || lines.slice(i + 1).every((l) => l.trim() === '')) break; // a last line cut short by a crash
      throw badRecording(i + 1, 'not JSON');
    }
    const e = checkEntry(v, i + 1, streams.length);
    if (e.type === 'end') endedAt = e.t;
    else entries.push(e);
  }
  const redacted = Array.isArray(header['redacted']) ? (header['redacted'] as Redaction[]) : undefined;
  return { startedAt: String(header['startedAt']), streams, entries, ...(endedAt !== undefined ? { endedAt } : {}), ...(redacted ? { redacted } : {}) };
}

/**
 * Reads and parses a recording file.
 *
 * @example
 * ```ts
 * const rec = await readRecording('incident-1234.jsonl');
 * ```
 */
export async function readRecording(file: string): Promise<Recording> {
  return parseRecording(await readFile(file, 'utf8'));
}

/** The resourceVersion of a recorded object, if it has one. */
export function resourceVersionOf(obj: unknown): string | undefined {
  const meta = isObject(obj) ? obj['metadata'] : undefined;
  const rv = isObject(meta) ? meta['resourceVersion'] : undefined;
  return typeof rv === 'string' ? rv : undefined;
}
