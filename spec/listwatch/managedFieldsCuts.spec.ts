import { describe, expect, it, jest } from '@jest/globals';
import { Buffer } from 'node:buffer';
import { stripManagedFields } from '../../lib/informer/stripManagedFields.js';
import { managedFieldsCuts, textWithout } from '../../lib/listwatch/managedFieldsCuts.js';
import { watchDecoder } from '../../lib/listwatch/watchDecoder.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { chunks, kubeObject, pick, rng, write } from './managedFieldsJson.js';

const enc = new TextEncoder();

/** Parse-then-strip, the oracle: the event's object without `metadata.managedFields`. */
function oracleEvent(line: string): unknown {
  const event = JSON.parse(line) as { object?: unknown };
  return { ...event, object: oracleObject(event.object) };
}

function oracleObject(obj: unknown): unknown {
  const meta = (obj as { metadata?: unknown } | null)?.metadata;
  // stripManagedFields throws on a metadata that is a string ('in' on a primitive); the cut leaves
  // such an object alone, so the transform behaves the same after it.
  return typeof meta === 'object' && meta !== null ? stripManagedFields(obj as { metadata: object }) : obj;
}

/** Decodes `bytes` fed in `parts` with managedFields cut before parsing. */
function decodeCut(parts: Uint8Array[]): WatchEvent<unknown>[] {
  const out: WatchEvent<unknown>[] = [];
  const d = watchDecoder<unknown>((e) => out.push(e), undefined, ['metadata.managedFields']);
  for (const p of parts) d.write(p);
  d.end();
  return out;
}

/** The same without cutting: what every MALFORMED verdict is compared with. */
function decodeWhole(parts: Uint8Array[]): WatchEvent<unknown>[] {
  const out: WatchEvent<unknown>[] = [];
  const d = watchDecoder<unknown>((e) => out.push(e));
  for (const p of parts) d.write(p);
  d.end();
  return out;
}

/** Both sides as JSON text, so that key order is compared too. */
const same = (actual: unknown, expected: unknown): void => {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
};

describe('managedFieldsCuts', () => {
  it('cuts the object\'s metadata.managedFields member with one comma, wherever it stands', () => {
    const cases: Array<[string, string]> = [
      ['{"metadata":{"name":"a","managedFields":[{"m":1}]}}', '{"metadata":{"name":"a"}}'],
      ['{"metadata":{"managedFields":[],"name":"a"}}', '{"metadata":{"name":"a"}}'],
      ['{"metadata":{"managedFields":null}}', '{"metadata":{}}'],
      ['{"metadata":{"a":1,"managedFields":1,"b":2}}', '{"metadata":{"a":1,"b":2}}'],
      ['{"metadata":{"managedFields":1,"managedFields":2,"a":3}}', '{"metadata":{"a":3}}'],
      ['{"metadata":{"a":1,"managedFields":1,"managedFields":2}}', '{"metadata":{"a":1}}'],
      ['{ "metadata" : { "a" : 1 , "managedFields" : [ ] } }', '{ "metadata" : { "a" : 1  } }'],
      ['{"metadata":{"managed\\u0046ields":[]},"x":1}', '{"metadata":{},"x":1}'],
    ];
    for (const [object, want] of cases) {
      const line = enc.encode(`{"type":"ADDED","object":${object}}`);
      const text = textWithout(line, 0, line.length, managedFieldsCuts(line, 0, line.length, 'event'));
      expect(text).toBe(`{"type":"ADDED","object":${want}}`);
    }
  });

  it('leaves managedFields that are not the object\'s own: nested metadata, other keys, inside strings', () => {
    const kept = [
      '{"type":"ADDED","object":{"spec":{"template":{"metadata":{"managedFields":[]}}}}}',
      '{"type":"ADDED","object":{"managedFields":[],"metadata":{"name":"managedFields"}}}',
      '{"type":"ADDED","object":{"metadata":{"note":"\\"managedFields\\":[]"}}}',
      '{"type":"ADDED","managedFields":[],"object":{"metadata":{}}}',
      '{"type":"ADDED","metadata":{"managedFields":[]},"object":{}}',
      '{"type":"ADDED","object":{"metadata":"managedFields"}}',
    ];
    for (const text of kept) {
      const line = enc.encode(text);
      expect(managedFieldsCuts(line, 0, line.length, 'event')).toEqual([]);
    }
  });

  it('cuts nothing from text that is not JSON where it walked, and what it cuts leaves it not JSON', () => {
    const broken = [
      '{"type":"ADDED","object":{"metadata":{"managedFields":[01]}}}',
      '{"type":"ADDED","object":{"metadata":{"managedFields":[1.]}}}',
      '{"type":"ADDED","object":{"metadata":{"managedFields":[tru]}}}',
      '{"type":"ADDED","object":{"metadata":{"managedFields":["\\x"]}}}',
      '{"type":"ADDED","object":{"metadata":{"managedFields":["\\u12"]}}}',
      '{"type":"ADDED","object":{"metadata":{"managedFields":["a\tb"]}}}',
      '{"type":"ADDED","object":{"metadata":{"managedFields":[1,]}}}',
      '{"type":"ADDED","object":{"metadata":{"managedFields":{"a"}}}}',
      '{"type":"ADDED","object":{"metadata":{"managedFields":[}}}',
      '{"type":"ADDED","object":{"metadata":{"managedFields":[]}}',
      '\ufeff{"type":"ADDED","object":{"metadata":{"managedFields":[]}}}',
    ];
    for (const text of broken) {
      expect(() => JSON.parse(text)).toThrow();
      const line = enc.encode(text);
      const cuts = managedFieldsCuts(line, 0, line.length, 'event');
      // Only past the object's metadata is the text left to JSON.parse: it fails either way.
      if (cuts.length > 0) expect(() => JSON.parse(textWithout(line, 0, line.length, cuts))).toThrow();
      expect(decodeCut([line, enc.encode('\n')])).toEqual(decodeWhole([line, enc.encode('\n')]));
    }
  });

  it('cuts each list item\'s managedFields, and not the list\'s own metadata', () => {
    const body = enc.encode(
      '{"kind":"PodList","metadata":{"resourceVersion":"5","managedFields":[]},"items":[' +
        '{"metadata":{"name":"a","managedFields":[{"f":{"k:{\\"a\\":1}":{}}}]}},7,' +
        '{"metadata":{"managedFields":[],"name":"b"}}]}',
    );
    const text = textWithout(body, 0, body.length, managedFieldsCuts(body, 0, body.length, 'list'));
    expect(text).toBe('{"kind":"PodList","metadata":{"resourceVersion":"5","managedFields":[]},"items":[{"metadata":{"name":"a"}},7,{"metadata":{"name":"b"}}]}');
  });
});

describe('cutting before parse against parse-then-strip (seeded)', () => {
  const seeds = Array.from({ length: 250 }, (_, i) => 1000 + i);

  it('gives the same watch events, fed in random chunks (cuts inside characters and lines)', () => {
    for (const seed of seeds) {
      const r = rng(seed);
      const lines = Array.from({ length: 5 }, (_, i) =>
        write(r, { members: [['type', pick(r, ['ADDED', 'MODIFIED', 'DELETED'])], ['object', kubeObject(r, `o${i}`)]] }, false),
      );
      const body = enc.encode(`${lines.join(pick(r, ['\n', '\r\n']))}\n`);
      const events = decodeCut(chunks(r, Buffer.from(body)));
      expect({ seed, n: events.length }).toEqual({ seed, n: lines.length });
      lines.forEach((line, k) => same(events[k], oracleEvent(line)));
    }
  });

  it('gives the same list items', () => {
    for (const seed of seeds) {
      const r = rng(seed);
      const items = Array.from({ length: 4 }, (_, i) => kubeObject(r, `o${i}`));
      const text = write(r, { members: [['kind', 'PodList'], ['metadata', { members: [['resourceVersion', '9']] }], ['items', items]] }, true);
      const bytes = Buffer.from(text);
      const body = JSON.parse(textWithout(bytes, 0, bytes.length, managedFieldsCuts(bytes, 0, bytes.length, 'list'))) as { items: unknown[] };
      const want = (JSON.parse(text) as { items: unknown[] }).items.map(oracleObject);
      same(body.items, want);
    }
  });

  it('gives the same MALFORMED events (the line as it came) for lines broken anywhere', () => {
    for (const seed of seeds) {
      const r = rng(seed);
      const line = write(r, { members: [['type', 'MODIFIED'], ['object', kubeObject(r, 'o')]] }, false);
      const broken = breakLine(r, line);
      const parts = chunks(r, Buffer.from(`${broken}\n`));
      const cut = decodeCut(parts);
      const whole = decodeWhole(parts);
      expect(cut.map(malformedLine)).toEqual(whole.map(malformedLine));
      if (whole[0]?.type !== 'MALFORMED') same(cut[0], oracleEvent(broken));
    }
  });

  it('never hands JSON.parse the managedFields of a watch object', () => {
    const line = JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'a', managedFields: [{ manager: 'kubectl' }] }, spec: {} } });
    const parse = jest.spyOn(JSON, 'parse');
    try {
      decodeCut([Buffer.from(`${line}\n`)]);
      const texts = parse.mock.calls.map((c) => String(c[0]));
      expect(texts).toHaveLength(1);
      expect(texts[0]).not.toContain('kubectl');
    } finally {
      parse.mockRestore();
    }
  });
});

/** The line breaks at a random place: a byte dropped, doubled, or a bad token put in. */
function breakLine(r: () => number, line: string): string {
  const at = Math.floor(r() * line.length);
  const how = r();
  if (how < 0.3) return line.slice(0, at) + line.slice(at + 1);
  if (how < 0.5) return line.slice(0, at) + line[at] + line.slice(at);
  return line.slice(0, at) + pick(r, ['\\x', '01', 'tru', '\u0001', ',', ']', '"']) + line.slice(at);
}

const malformedLine = (e: WatchEvent<unknown>): string => (e.type === 'MALFORMED' ? `MALFORMED ${e.line}` : e.type);
