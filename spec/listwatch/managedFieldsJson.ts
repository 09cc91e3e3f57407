// A seeded generator of Kubernetes-like objects written as JSON text the way a server (or a
// hostile one) might write it: random whitespace, keys and strings with escapes (\uXXXX for plain
// letters too, so that "managed\u0046ields" is the key managedFields), multi-byte characters, and
// managedFields first, last, alone, twice, empty, null, absent, nested below spec, and spelled
// inside strings and other keys. Shared by managedFieldsCuts.spec.ts (not a spec file itself).

/** mulberry32: a small seeded PRNG, so that a failing case is reproduced from its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** An object's members in order, duplicates allowed (JSON.parse keeps the last). */
export interface Members {
  readonly members: ReadonlyArray<readonly [string, Node]>;
}
export type Node = Json | Members | ReadonlyArray<Node>;

const tricky = [
  'managedFields',
  '"managedFields"',
  '"managedFields":[',
  'metadata',
  ']},"',
  '{"a":[}',
  'k:{"uid":"0a1b"}',
  'café',
  '日本語',
  'x🎉y',
  'back\\slash',
  'tab\tnew\nline',
  '\u2028\u2029',
  '\u0000\u001f',
  '\ud800',
  '/slash',
  '',
];

export function pick<T>(r: () => number, xs: ReadonlyArray<T>): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function scalar(r: () => number): Json {
  const k = r();
  if (k < 0.35) return pick(r, tricky);
  if (k < 0.5) return `s${Math.floor(r() * 1000)}`;
  if (k < 0.6) return pick(r, [0, -0, 1, -17, 3.25, 1e21, 6.02e-23, 2 ** 53, -1.5e300]);
  if (k < 0.7) return pick(r, [true, false, null]);
  return `f:${pick(r, ['name', 'image', '.', 'k:{"name":"web"}'])}`;
}

/** A random JSON value (fieldsV1-like: objects of objects), `depth` levels at most. */
export function value(r: () => number, depth: number): Node {
  const k = r();
  if (depth <= 0 || k < 0.4) return scalar(r);
  const n = Math.floor(r() * 4);
  if (k < 0.6) return Array.from({ length: n }, () => value(r, depth - 1));
  const members: [string, Node][] = [];
  for (let i = 0; i < n; i++) {
    members.push([r() < 0.15 ? pick(r, ['managedFields', 'metadata', 'object', 'items']) : `${pick(r, tricky)}${i}`, value(r, depth - 1)]);
  }
  return { members };
}

function managedFields(r: () => number): Node {
  const k = r();
  if (k < 0.1) return [];
  if (k < 0.15) return null;
  if (k < 0.2) return pick(r, ['not a list', 42, true]);
  return Array.from({ length: 1 + Math.floor(r() * 3) }, () => ({
    members: [
      ['manager', pick(r, ['kubectl', 'kube-controller-manager', 'kübelet'])],
      ['operation', 'Update'],
      ['fieldsType', 'FieldsV1'],
      ['fieldsV1', value(r, 5)],
    ],
  }));
}

/** A metadata object: managedFields absent, once, twice, first, last or alone. */
function metadata(r: () => number, name: string): Node {
  const members: [string, Node][] = [
    ['name', name],
    ['labels', { members: [['app', pick(r, tricky)]] }],
    ['annotations', { members: [['note', pick(r, tricky)]] }],
  ];
  const k = r();
  if (k < 0.1) return { members: [['managedFields', managedFields(r)]] };
  if (k < 0.2) return { members };
  const times = r() < 0.15 ? 2 : 1;
  for (let t = 0; t < times; t++) {
    members.splice(Math.floor(r() * (members.length + 1)), 0, ['managedFields', managedFields(r)]);
  }
  return { members };
}

/** A Kubernetes-like object; sometimes with a pod template whose own managedFields must stay. */
export function kubeObject(r: () => number, name: string): Node {
  const members: [string, Node][] = [
    ['apiVersion', 'v1'],
    ['kind', 'Pod'],
    ['metadata', r() < 0.05 ? pick(r, [null, 'text', [1]]) : metadata(r, name)],
    ['spec', { members: [['template', { members: [['metadata', metadata(r, `${name}-template`)]] }], ['x', value(r, 3)]] }],
    ['status', value(r, 3)],
  ];
  if (r() < 0.1) members.push(['metadata', metadata(r, `${name}-again`)]); // a duplicate key: the last one counts
  if (r() < 0.2) members.splice(Math.floor(r() * members.length), 0, ['managedFields', managedFields(r)]); // not in metadata: stays
  return { members };
}

const isMembers = (n: Node): n is Members => typeof n === 'object' && n !== null && !Array.isArray(n) && 'members' in n;

/** Whitespace JSON allows (no newline when the text is a watch line). */
function space(r: () => number, newlines: boolean): string {
  const k = r();
  if (k < 0.8) return '';
  return pick(r, newlines ? [' ', '\t', '\r\n', '\n  '] : [' ', '\t', '  ', ' \t ']);
}

/** A string literal: each character sometimes written as \uXXXX, else as JSON.stringify writes it. */
function str(r: () => number, s: string): string {
  const escapeSome = r() < 0.2;
  let out = '"';
  for (const ch of s) {
    if (escapeSome && r() < 0.3 && ch.length === 1) out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += JSON.stringify(ch).slice(1, -1);
  }
  return `${out}"`;
}

/** The node as JSON text, with random whitespace and escapes. */
export function write(r: () => number, n: Node, newlines: boolean): string {
  const s = (): string => space(r, newlines);
  if (isMembers(n)) return `{${s()}${n.members.map(([k, v]) => `${str(r, k)}${s()}:${s()}${write(r, v, newlines)}`).join(`${s()},${s()}`)}${s()}}`;
  if (Array.isArray(n)) return `[${s()}${(n as ReadonlyArray<Node>).map((v) => write(r, v, newlines)).join(`${s()},${s()}`)}${s()}]`;
  if (typeof n === 'string') return str(r, n);
  return JSON.stringify(n);
}

/** What parse-then-strip gives: `metadata.managedFields` deleted as `stripManagedFields` does. */
export function stripped(obj: unknown): unknown {
  if (typeof obj !== 'object' || obj === null) return obj;
  const meta = (obj as { metadata?: unknown }).metadata;
  if (typeof meta !== 'object' || meta === null || !('managedFields' in meta)) return obj;
  const { managedFields: _m, ...rest } = meta as Record<string, unknown>;
  return { ...obj, metadata: rest };
}

/** Cuts `text` (as UTF-8 bytes) into random chunks, some inside multi-byte characters. */
export function chunks(r: () => number, bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    const n = 1 + Math.floor(r() * (r() < 0.5 ? 8 : 400));
    out.push(bytes.slice(at, at + n));
    at += n;
  }
  return out;
}
