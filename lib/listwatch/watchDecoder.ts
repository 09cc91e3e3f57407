import { Observable, type OperatorFunction } from 'rxjs';
import { concatBytes } from '../transport/streamRequest.js';
import { dropsManagedFields, type DroppableField } from './droppableField.js';
import { MalformedWatchEventError } from './malformedWatchEventError.js';
import { managedFieldsCuts, textWithout } from './managedFieldsCuts.js';
import { copyBytes, decodeUtf8, decodeUtf8Parts } from './utf8.js';
import type { WatchEvent } from './watchEvent.js';

const LF = 10;
const CR = 13;

/**
 * The longest watch line decoded: 64 MiB. The API server refuses requests over 3 MiB and etcd
 * values over 1.5 MiB, so no real event comes near it; a line that grows past it (a broken server
 * that never sends a newline) is MALFORMED instead of growing the heap until the process dies.
 *
 * @example
 * ```ts
 * watchDecoder<V1Pod>(onEvent, MAX_WATCH_LINE_BYTES);
 * ```
 */
export const MAX_WATCH_LINE_BYTES = 64 * 1024 * 1024;

/**
 * A stateful splitter of a watch stream's bytes into events; see {@link watchDecoder}.
 *
 * @example
 * ```ts
 * const decoder: WatchDecoder = watchDecoder<V1Pod>((e) => console.log(e.type));
 * for await (const chunk of body) decoder.write(chunk);
 * decoder.end();
 * ```
 */
export interface WatchDecoder {
  /** Decodes every complete line in `chunk` (emitting one event each) and keeps the incomplete tail. */
  write(chunk: Uint8Array): void;
  /** The stream ended: decodes a last line that had no newline (a truncated one is MALFORMED). */
  end(): void;
}

/**
 * The watch decoder, the hot path of a watch: splits a chunked stream of newline-delimited JSON
 * into watch events. It searches each chunk for byte 10 and decodes only complete lines, in place
 * (no copy of the chunk); only the tail of a line that continues in the next chunk is copied and
 * kept. A UTF-8 sequence never contains byte 10, so a multi-byte character split across chunks is
 * whole again once the line is complete. `\r\n` endings and blank lines are accepted. A line that
 * is not a watch event becomes a `MALFORMED` event and decoding goes on with the next line; so does
 * a line longer than `maxLineBytes` (default {@link MAX_WATCH_LINE_BYTES}), whose rest is skipped.
 *
 * The events are the parsed objects themselves (no re-wrapping). Chunks are not retained, so a
 * transport may reuse its buffers once `write` returns.
 *
 * With `drop: ['metadata.managedFields']`, each line's `object.metadata.managedFields` is cut from
 * its bytes before `JSON.parse`, so the parser never builds it: the event is the one parsing the
 * whole line and deleting that key gives. A `MALFORMED` event always carries the line as it came.
 *
 * @example
 * ```ts
 * const events: WatchEvent<V1Pod>[] = [];
 * const decoder = watchDecoder<V1Pod>((e) => events.push(e));
 * decoder.write(new TextEncoder().encode('{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n{"ty'));
 * decoder.write(new TextEncoder().encode('pe":"DELETED","object":{"metadata":{"name":"a"}}}\n'));
 * decoder.end(); // events: ADDED a, DELETED a
 * ```
 */
export function watchDecoder<T>(
  emit: (event: WatchEvent<T>) => void,
  maxLineBytes: number = MAX_WATCH_LINE_BYTES,
  drop?: ReadonlyArray<DroppableField>,
): WatchDecoder {
  const cut = dropsManagedFields(drop);
  // The start of a line that continues in a later chunk: copies of chunk tails, decoded once the
  // line is complete (in place, part by part, unless a cut splits a character).
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  // Bytes of a line that is being skipped (it grew past maxLineBytes): dropped until its newline.
  let skipping = false;

  const parse = (text: string): void => {
    const event = parseWatchEvent<T>(text);
    if (event !== undefined) emit(event);
  };

  /** A line with its managedFields cut out; the whole line when it has none or is no JSON. */
  const parseCut = (bytes: Uint8Array, start: number, end: number): void => {
    const cuts = managedFieldsCuts(bytes, start, end, 'event');
    const event = cuts.length > 0 ? parseWatchEvent<T>(textWithout(bytes, start, end, cuts)) : undefined;
    // A MALFORMED verdict is given again on the line as it came, so that it carries that line.
    if (event !== undefined && event.type !== 'MALFORMED') emit(event);
    else parse(decodeUtf8(bytes, start, end));
  };

  const line = (bytes: Uint8Array, start: number, end: number): void => {
    if (end > start && bytes[end - 1] === CR) end--;
    if (end <= start) return;
    if (cut) parseCut(bytes, start, end);
    else parse(decodeUtf8(bytes, start, end));
  };

  const pendingLine = (head: Uint8Array): void => {
    const parts = head.length > 0 ? [...pending, head] : pending;
    pending = [];
    pendingBytes = 0;
    if (cut) {
      const joined = concatBytes(parts);
      line(joined, 0, joined.length);
      return;
    }
    let text = decodeUtf8Parts(parts);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text !== '') parse(text);
  };

  return {
    write(chunk) {
      let i = 0;
      let j = chunk.indexOf(LF);
      if (j >= 0 && skipping) {
        skipping = false;
        i = j + 1;
        j = chunk.indexOf(LF, i);
      } else if (j >= 0 && pending.length > 0) {
        pendingLine(chunk.subarray(0, j));
        i = j + 1;
        j = chunk.indexOf(LF, i);
      }
      if (skipping) return;
      while (j >= 0) {
        line(chunk, i, j);
        i = j + 1;
        j = chunk.indexOf(LF, i);
      }
      // A copy of the tail only, so the chunk itself is not retained.
      if (i < chunk.length) {
        pending.push(copyBytes(chunk, i, chunk.length));
        pendingBytes += chunk.length - i;
        // A line that never ends must not take all memory: past the limit it is MALFORMED, and
        // its rest is skipped up to its newline.
        if (pendingBytes > maxLineBytes) {
          const head = pending[0]!;
          pending = [];
          pendingBytes = 0;
          skipping = true;
          const start = decodeUtf8(head, 0, Math.min(head.length, 120));
          emit(malformed(start, `a line longer than ${maxLineBytes} bytes`));
        }
      }
    },
    end() {
      if (pending.length > 0 && !skipping) pendingLine(new Uint8Array(0));
    },
  };
}

/**
 * Decodes a stream of byte chunks (a watch response body) into watch events with
 * {@link watchDecoder} (`drop`: fields cut before parsing, as there). A last line without a newline
 * is decoded when the source completes; on a source error the incomplete tail is dropped and the
 * error passed on.
 *
 * ```
 * chunks:  --[ADDED a\nMODI]--[FIED b\n]--|
 * result:  --ADDED a-----------MODIFIED b--|
 * ```
 *
 * @example
 * ```ts
 * const events$ = chunks$.pipe(decodeWatchEvents<V1Pod>());
 * ```
 */
export function decodeWatchEvents<T>(drop?: ReadonlyArray<DroppableField>): OperatorFunction<Uint8Array, WatchEvent<T>> {
  return (source) =>
    new Observable<WatchEvent<T>>((subscriber) => {
      const decoder = watchDecoder<T>((event) => subscriber.next(event), MAX_WATCH_LINE_BYTES, drop);
      return source.subscribe({
        next: (chunk) => decoder.write(chunk),
        error: (err: unknown) => subscriber.error(err),
        complete: () => {
          decoder.end();
          subscriber.complete();
        },
      });
    });
}

/**
 * Decodes a stream of byte chunks (a watch response body) into bursts: one array per chunk holding
 * the events of every line that chunk completed (none for a chunk that completes no line). What
 * arrived together travels together, so downstream pays its per-emission costs once per chunk.
 * A last line without a newline is one more burst when the source completes; on a source error the
 * incomplete tail is dropped and the error passed on.
 *
 * ```
 * chunks:  --[ADDED a\nMODI]--[FIED b\nDELETED a\n]--|
 * result:  --[ADDED a]---------[MODIFIED b, DELETED a]--|
 * ```
 *
 * @example
 * ```ts
 * const bursts$ = chunks$.pipe(decodeWatchBursts<V1Pod>());
 * bursts$.subscribe((burst) => console.log(burst.length));
 * ```
 */
export function decodeWatchBursts<T>(
  drop?: ReadonlyArray<DroppableField>,
): OperatorFunction<Uint8Array, ReadonlyArray<WatchEvent<T>>> {
  return (source) =>
    new Observable<ReadonlyArray<WatchEvent<T>>>((subscriber) => {
      let burst: WatchEvent<T>[] = [];
      const decoder = watchDecoder<T>((event) => burst.push(event), MAX_WATCH_LINE_BYTES, drop);
      const flush = (): void => {
        if (burst.length === 0) return;
        const out = burst;
        burst = [];
        subscriber.next(out);
      };
      return source.subscribe({
        next: (chunk) => {
          decoder.write(chunk);
          flush();
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => {
          decoder.end();
          flush();
          subscriber.complete();
        },
      });
    });
}

const eventTypes = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** Parses one line; `undefined` for a blank line. */
function parseWatchEvent<T>(text: string): WatchEvent<T> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    if (text.trim() === '') return undefined;
    return malformed(text, 'not JSON', err);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return malformed(text, 'not an object');
  const { type, object } = value as { type?: unknown; object?: unknown };
  if (typeof type !== 'string' || !eventTypes.has(type))
    return malformed(text, `unknown type ${JSON.stringify(type)}`);
  if (typeof object !== 'object' || object === null) return malformed(text, 'no object');
  return value as WatchEvent<T>;
}

function malformed<T>(line: string, reason: string, cause?: unknown): WatchEvent<T> {
  const error = new MalformedWatchEventError(line, reason, cause === undefined ? undefined : { cause });
  return { type: 'MALFORMED', line, error };
}
