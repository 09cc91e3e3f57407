import { describe, expect, it } from '@jest/globals';
import { Buffer } from 'node:buffer';
import { firstValueFrom, from, Observable, toArray } from 'rxjs';
import { MalformedWatchEventError } from '../../lib/listwatch/malformedWatchEventError.js';
import { decodeWatchBursts, decodeWatchEvents, watchDecoder } from '../../lib/listwatch/watchDecoder.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';

interface Obj {
  metadata: { name: string };
  note?: string;
}

const enc = new TextEncoder();
const ev = (type: string, name: string, note?: string): string =>
  JSON.stringify({ type, object: { metadata: { name }, ...(note !== undefined ? { note } : {}) } });

/** Feeds chunks to a fresh decoder and returns what it emitted. */
function decode(chunks: Uint8Array[]): WatchEvent<Obj>[] {
  const out: WatchEvent<Obj>[] = [];
  const d = watchDecoder<Obj>((e) => out.push(e));
  for (const c of chunks) d.write(c);
  d.end();
  return out;
}

/** Summary of events that is easy to compare: type and name, or MALFORMED with the line. */
const summary = (events: WatchEvent<Obj>[]): string[] =>
  events.map((e) =>
    e.type === 'MALFORMED'
      ? `MALFORMED ${e.line}`
      : e.type === 'ERROR'
        ? `ERROR ${e.object.code}`
        : `${e.type} ${e.object.metadata.name} ${e.object.note ?? ''}`,
  );

// Two-, three- and four-byte UTF-8 characters, so that splits fall inside them.
const stream = `${ev('ADDED', 'a', 'café')}\n${ev('MODIFIED', 'b', '日本語')}\n${ev('DELETED', 'c', 'x🎉y')}\n`;
const expected = ['ADDED a café', 'MODIFIED b 日本語', 'DELETED c x🎉y'];

describe('watchDecoder', () => {
  it('decodes every line of one chunk, multi-byte characters intact', () => {
    expect(summary(decode([enc.encode(stream)]))).toEqual(expected);
  });

  it('decodes the same events whichever byte the stream is split at (Uint8Array chunks)', () => {
    const bytes = enc.encode(stream);
    for (let k = 0; k <= bytes.length; k++) {
      expect(summary(decode([bytes.slice(0, k), bytes.slice(k)]))).toEqual(expected);
    }
  });

  it('decodes the same events whichever byte the stream is split at (Node Buffer chunks, the fast path)', () => {
    const bytes = Buffer.from(stream, 'utf8');
    for (let k = 0; k <= bytes.length; k++) {
      expect(summary(decode([bytes.subarray(0, k), bytes.subarray(k)]))).toEqual(expected);
    }
  });

  it('decodes a line split over three chunks at every pair of positions, including inside a 4-byte character', () => {
    const line = `${ev('ADDED', 'z', '🎉é')}\n`;
    const bytes = enc.encode(line);
    for (let a = 0; a <= bytes.length; a++) {
      for (let b = a; b <= bytes.length; b++) {
        const got = decode([bytes.slice(0, a), bytes.slice(a, b), bytes.slice(b)]);
        expect(summary(got)).toEqual(['ADDED z 🎉é']);
      }
    }
  });

  it('decodes a stream fed one byte at a time', () => {
    const bytes = enc.encode(stream);
    const chunks = Array.from(bytes, (b) => Uint8Array.of(b));
    expect(summary(decode(chunks))).toEqual(expected);
  });

  it('reports a malformed line as a MALFORMED event and keeps the events around it', () => {
    const text = `${ev('ADDED', 'a')}\n{"type":"MODIFIED","object":{"metadata":\n${ev('DELETED', 'a')}\n`;
    const events = decode([enc.encode(text)]);
    expect(summary(events)).toEqual([
      'ADDED a ',
      'MALFORMED {"type":"MODIFIED","object":{"metadata":',
      'DELETED a ',
    ]);
    const bad = events[1]!;
    expect(bad.type === 'MALFORMED' && bad.error).toBeInstanceOf(MalformedWatchEventError);
    expect(bad.type === 'MALFORMED' && bad.error.line).toBe('{"type":"MODIFIED","object":{"metadata":');
    expect(bad.type === 'MALFORMED' && bad.error.message).toMatch(/not JSON/);
  });

  it('reports lines that are JSON but not watch events as MALFORMED', () => {
    const lines = [
      '[1,2]',
      '42',
      'null',
      '{"type":"ADDED"}',
      '{"type":"NOPE","object":{}}',
      '{"object":{}}',
      '{"type":"ADDED","object":"x"}',
    ];
    const events = decode([
      enc.encode(`${ev('ADDED', 'first')}\n${lines.join('\n')}\n${ev('ADDED', 'last')}\n`),
    ]);
    expect(events.map((e) => e.type)).toEqual(['ADDED', ...lines.map(() => 'MALFORMED'), 'ADDED']);
    expect(events.slice(1, -1).map((e) => (e.type === 'MALFORMED' ? e.line : ''))).toEqual(lines);
  });

  it('skips empty and blank lines and accepts CRLF line ends', () => {
    const text = `\n${ev('ADDED', 'a')}\r\n\r\n   \n${ev('MODIFIED', 'a')}\r\n\n`;
    expect(summary(decode([enc.encode(text)]))).toEqual(['ADDED a ', 'MODIFIED a ']);
  });

  it('accepts CRLF split between chunks', () => {
    const bytes = enc.encode(`${ev('ADDED', 'a')}\r\n${ev('ADDED', 'b')}\r\n`);
    const cr = bytes.indexOf(13);
    expect(summary(decode([bytes.slice(0, cr + 1), bytes.slice(cr + 1)]))).toEqual(['ADDED a ', 'ADDED b ']);
  });

  it('passes ERROR events through with their Status', () => {
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'Expired',
      code: 410,
      message: 'too old resource version: 1 (5)',
    };
    const events = decode([enc.encode(`${JSON.stringify({ type: 'ERROR', object: status })}\n`)]);
    expect(events).toEqual([{ type: 'ERROR', object: status }]);
  });

  it('decodes a last line without a newline at the end, and reports a truncated one', () => {
    expect(summary(decode([enc.encode(`${ev('ADDED', 'a')}\n${ev('ADDED', 'b')}`)]))).toEqual([
      'ADDED a ',
      'ADDED b ',
    ]);
    const truncated = decode([enc.encode(`${ev('ADDED', 'a')}\n{"type":"ADDED","obj`)]);
    expect(summary(truncated)).toEqual(['ADDED a ', 'MALFORMED {"type":"ADDED","obj']);
  });

  it('does not retain a chunk: overwriting it after write does not change the pending line', () => {
    const bytes = enc.encode(`${ev('ADDED', 'a')}\n${ev('ADDED', 'b')}\n`);
    const split = bytes.indexOf(10) + 5;
    const first = bytes.slice(0, split);
    const out: WatchEvent<Obj>[] = [];
    const d = watchDecoder<Obj>((e) => out.push(e));
    d.write(first);
    first.fill(0x20); // a transport reusing its buffer
    d.write(bytes.slice(split));
    d.end();
    expect(summary(out)).toEqual(['ADDED a ', 'ADDED b ']);
  });

  it('hands over the parsed objects without re-wrapping them', () => {
    const events = decode([enc.encode(`${ev('ADDED', 'a')}\n`)]);
    expect(events[0]).toEqual({ type: 'ADDED', object: { metadata: { name: 'a' } } });
  });
});

describe('decodeWatchEvents', () => {
  it('decodes a stream of chunks into events in order', async () => {
    const bytes = enc.encode(stream);
    const chunks = [bytes.slice(0, 7), bytes.slice(7, 100), bytes.slice(100)];
    const events = await firstValueFrom(from(chunks).pipe(decodeWatchEvents<Obj>(), toArray()));
    expect(summary(events)).toEqual(expected);
  });

  it('passes a source error on after the complete lines, dropping the incomplete tail', async () => {
    const boom = new Error('connection reset');
    const source = new Observable<Uint8Array>((s) => {
      s.next(enc.encode(`${ev('ADDED', 'a')}\n{"type":"ADD`));
      s.error(boom);
    });
    const seen: string[] = [];
    const err = await new Promise<unknown>((resolve) =>
      source.pipe(decodeWatchEvents<Obj>()).subscribe({ next: (e) => seen.push(e.type), error: resolve }),
    );
    expect(err).toBe(boom);
    expect(seen).toEqual(['ADDED']);
  });
});

describe('decodeWatchBursts', () => {
  const burstsOf = (chunks: string[]) =>
    firstValueFrom(from(chunks.map((c) => enc.encode(c))).pipe(decodeWatchBursts<Obj>(), toArray()));

  it('one burst per chunk holding every line the chunk completed; a chunk that completes none gives no burst', async () => {
    const a = ev('ADDED', 'a');
    const b = ev('MODIFIED', 'b');
    const c = ev('DELETED', 'c');
    const bursts = await burstsOf([`${a}\n${b.slice(0, 10)}`, b.slice(10, 20), `${b.slice(20)}\n${c}\n`]);
    expect(bursts.map((burst) => summary([...burst]))).toEqual([['ADDED a '], ['MODIFIED b ', 'DELETED c ']]);
  });

  it('a last line without a newline is one more burst at completion; a malformed line stays in its burst', async () => {
    const bursts = await burstsOf([`${ev('ADDED', 'a')}\n{"type":\n`, ev('DELETED', 'a')]);
    expect(bursts.map((burst) => summary([...burst]))).toEqual([
      ['ADDED a ', 'MALFORMED {"type":'],
      ['DELETED a '],
    ]);
  });

  it('on a source error the incomplete tail is dropped and the error passed on', async () => {
    const source = new Observable<Uint8Array>((s) => {
      s.next(enc.encode(`${ev('ADDED', 'a')}\n{"type":"ADD`));
      s.error(new Error('reset'));
    });
    const seen: number[] = [];
    await expect(
      new Promise((resolve, reject) =>
        source
          .pipe(decodeWatchBursts<Obj>())
          .subscribe({ next: (b) => seen.push(b.length), error: reject, complete: () => resolve(undefined) }),
      ),
    ).rejects.toThrow('reset');
    expect(seen).toEqual([1]);
  });
});

describe('a watch line that never ends', () => {
  it('past the line limit it is one MALFORMED event, its rest is skipped to its newline, and the next line decodes', () => {
    const out: WatchEvent<Obj>[] = [];
    const d = watchDecoder<Obj>((e) => out.push(e), 64);
    d.write(enc.encode('{"type":"ADDED","object":{"x":"'));
    for (let i = 0; i < 100; i++) d.write(enc.encode('y'.repeat(40))); // 4 kB, no newline
    d.write(enc.encode('yyy"}}\n'));
    d.write(enc.encode(`${ev('ADDED', 'next')}\n`));
    d.end();
    expect(summary(out)).toEqual([expect.stringMatching(/^MALFORMED/), 'ADDED next ']);
    expect((out[0] as { error: MalformedWatchEventError }).error.message).toMatch(/a line longer than 64 bytes/);
  });
});
