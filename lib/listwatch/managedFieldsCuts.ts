import { decodeUtf8 } from './utf8.js';

// Finds the byte ranges of `metadata.managedFields` in one JSON text (a watch line or a list
// body), so that the text can be parsed without them: JSON.parse then never builds the objects a
// transform would throw away. The scan is exact: it validates everything it walks (strings,
// escapes, numbers, literals, nesting) as JSON.parse does, and when the text is not valid JSON it
// cuts nothing, so that parsing fails on the original text as it would have. Cutting a whole
// member `"managedFields":<value>` (with one adjoining comma) out of valid JSON leaves valid JSON
// whose parse is the original's parse with that key deleted.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
/** Not valid JSON: the scan stops and cuts nothing. */
const FAIL = -1;
/**
 * An event's object had its metadata walked and the rest of the line holds no other `metadata`
 * key (see {@link restHasNoMetadata}): the scan stops there, its cuts final. The rest is left to
 * JSON.parse: whether it is valid JSON does not depend on what was cut before it.
 */
const DONE = -2;

/**
 * Where an object sits in the text: the event line's top level (its `object` is walked), a list's
 * top level (its `items` are), an object (its `metadata` is), an object's metadata (its
 * `managedFields` are cut).
 */
type Level = 'event' | 'list' | 'object' | 'metadata';

const keyBytes = (key: string): Uint8Array => Uint8Array.from(key, (c) => c.charCodeAt(0));
const OBJECT = keyBytes('object');
const ITEMS = keyBytes('items');
const METADATA = keyBytes('metadata');
const MANAGED_FIELDS = keyBytes('managedFields');

/**
 * The ranges to cut from `bytes[start, end)` so that it parses as it would with
 * `metadata.managedFields` deleted from the watch event's object (`shape: 'event'`) or from each
 * of a list's items (`shape: 'list'`): flat `[from, to, from, to, ...]`, ascending, each range on
 * ASCII bytes (so cutting never splits a character). Empty when there is nothing to cut, or when
 * the text is not valid JSON.
 *
 * @example
 * ```ts
 * const line = new TextEncoder().encode('{"type":"ADDED","object":{"metadata":{"name":"a","managedFields":[]}}}');
 * const cuts = managedFieldsCuts(line, 0, line.length, 'event');
 * textWithout(line, 0, line.length, cuts); // '{"type":"ADDED","object":{"metadata":{"name":"a"}}}'
 * ```
 */
export function managedFieldsCuts(bytes: Uint8Array, start: number, end: number, shape: 'event' | 'list'): number[] {
  // The scan may look at bytes[end] (never past it); a view that ends there keeps that honest.
  if (end < bytes.length && !isWs(bytes[end]!)) bytes = bytes.subarray(0, end);
  const cuts: number[] = [];
  let i = ws(bytes, start, end);
  i = bytes[i] === LBRACE ? walkObject(bytes, i, end, shape, cuts) : skipValue(bytes, i, end);
  if (i === DONE) return cuts;
  if (i === FAIL || ws(bytes, i, end) !== end) return [];
  return cuts;
}

/**
 * `bytes[start, end)` decoded as UTF-8 without the ranges of {@link managedFieldsCuts}.
 *
 * @example
 * ```ts
 * JSON.parse(textWithout(line, 0, line.length, managedFieldsCuts(line, 0, line.length, 'event')));
 * ```
 */
export function textWithout(bytes: Uint8Array, start: number, end: number, cuts: ReadonlyArray<number>): string {
  let text = '';
  let at = start;
  for (let k = 0; k < cuts.length; k += 2) {
    text += decodeUtf8(bytes, at, cuts[k]!);
    at = cuts[k + 1]!;
  }
  return text + decodeUtf8(bytes, at, end);
}

/** What to do with a member's value: walk it as an object of a level, walk list items, cut, skip. */
function childOf(level: Level, b: Uint8Array, keyAt: number, keyEnd: number, first: number | undefined): Level | 'items' | 'cut' | 'skip' {
  switch (level) {
    case 'event':
      return first === LBRACE && keyIs(b, keyAt, keyEnd, OBJECT) ? 'object' : 'skip';
    case 'list':
      return first === LBRACKET && keyIs(b, keyAt, keyEnd, ITEMS) ? 'items' : 'skip';
    case 'object':
      return first === LBRACE && keyIs(b, keyAt, keyEnd, METADATA) ? 'metadata' : 'skip';
    case 'metadata':
      return keyIs(b, keyAt, keyEnd, MANAGED_FIELDS) ? 'cut' : 'skip';
  }
}

/**
 * Walks the object at `b[i] === '{'`, recording cuts below it; returns the index after its `}`.
 * A cut member takes the comma before it when a kept member precedes it, else the comma after it,
 * so that what is left has exactly one comma between members.
 */
function walkObject(b: Uint8Array, i: number, end: number, level: Level, cuts: number[], event = level === 'event'): number {
  i = ws(b, i + 1, end);
  if (b[i] === RBRACE) return i + 1;
  let kept = false;
  let commaAt = -1;
  // Each turn moves i forward past one member, so the loop ends within the text.
  for (;;) {
    const keyAt = i;
    if (b[i] !== QUOTE) return FAIL;
    const keyEnd = scanString(b, i, end);
    if (keyEnd === FAIL) return FAIL;
    i = ws(b, keyEnd, end);
    if (b[i] !== COLON) return FAIL;
    i = ws(b, i + 1, end);
    const child = childOf(level, b, keyAt, keyEnd, b[i]);
    const valueEnd =
      child === 'skip' || child === 'cut'
        ? skipValue(b, i, end)
        : child === 'items'
          ? walkItems(b, i, end, cuts)
          : walkObject(b, i, end, child, cuts, event);
    if (valueEnd < 0) return valueEnd;
    // In a watch line, nothing past the object's metadata needs walking unless another
    // `metadata` could follow (a duplicate key, which JSON.parse would take instead).
    if (child === 'metadata' && event && restHasNoMetadata(b, valueEnd, end)) return DONE;
    i = ws(b, valueEnd, end);
    const next = b[i];
    if (next !== COMMA && next !== RBRACE) return FAIL;
    if (child !== 'cut') kept = true;
    else if (kept) cuts.push(commaAt, valueEnd);
    else cuts.push(keyAt, next === COMMA ? i + 1 : valueEnd);
    if (next === RBRACE) return i + 1;
    commaAt = i;
    i = ws(b, i + 1, end);
  }
}

const METADATA_KEY = keyBytes('metadata"');

/**
 * Whether `b[from, end)` surely holds no key that JSON.parse reads as `metadata`: no `metadata"`
 * (the key as such) and no `\u` escape (which could spell it). Found with Buffer's native search on
 * Node; elsewhere byte by byte.
 */
function restHasNoMetadata(b: Uint8Array, from: number, end: number): boolean {
  const rest = b.subarray(from, end);
  if (typeof (rest as Partial<{ utf8Slice: unknown }>).utf8Slice === 'function') {
    const search = rest as unknown as { indexOf(value: Uint8Array | number): number };
    return search.indexOf(METADATA_KEY) < 0 && !hasUnicodeEscape(rest);
  }
  for (let k = rest.indexOf(QUOTE); k >= 0; k = rest.indexOf(QUOTE, k + 1)) {
    if (k >= 8 && METADATA.every((c, n) => rest[k - 8 + n] === c)) return false;
  }
  return !hasUnicodeEscape(rest);
}

/** Whether a `\u` escape occurs in `b` (from a structural position: pairs of backslashes skipped). */
function hasUnicodeEscape(b: Uint8Array): boolean {
  for (let k = b.indexOf(BACKSLASH); k >= 0; k = b.indexOf(BACKSLASH, k + 2)) if (b[k + 1] === 0x75) return true;
  return false;
}

/** Walks a list's `items` array at `b[i] === '['`: each object item is walked for its metadata. */
function walkItems(b: Uint8Array, i: number, end: number, cuts: number[]): number {
  i = ws(b, i + 1, end);
  if (b[i] === RBRACKET) return i + 1;
  for (;;) {
    i = b[i] === LBRACE ? walkObject(b, i, end, 'object', cuts) : skipValue(b, i, end);
    if (i === FAIL) return FAIL;
    i = ws(b, i, end);
    if (b[i] === RBRACKET) return i + 1;
    if (b[i] !== COMMA) return FAIL;
    i = ws(b, i + 1, end);
  }
}

/**
 * Skips (and validates) one JSON value starting at `b[i]`; returns the index after it. Iterative,
 * with a stack of open containers, so that deep nesting cannot overflow the call stack.
 */
function skipValue(b: Uint8Array, i: number, end: number): number {
  const open: number[] = [];
  value: for (;;) {
    if (i >= end) return FAIL;
    const c = b[i]!;
    if (c === LBRACE) {
      i = ws(b, i + 1, end);
      if (b[i] === RBRACE) i++;
      else {
        open.push(RBRACE);
        i = memberKey(b, i, end);
        if (i === FAIL) return FAIL;
        continue value;
      }
    } else if (c === LBRACKET) {
      i = ws(b, i + 1, end);
      if (b[i] === RBRACKET) i++;
      else {
        open.push(RBRACKET);
        continue value;
      }
    } else if (c === QUOTE) i = scanString(b, i, end);
    else if (c === MINUS || (c >= ZERO && c <= NINE)) i = scanNumber(b, i, end);
    else i = scanLiteral(b, i, end);
    if (i === FAIL) return FAIL;
    // After a value: close containers until one continues with a comma.
    for (;;) {
      if (open.length === 0) return i;
      i = ws(b, i, end);
      const closer = open[open.length - 1]!;
      if (b[i] === closer) {
        open.pop();
        i++;
      } else if (b[i] === COMMA) {
        i = ws(b, i + 1, end);
        if (closer === RBRACE) i = memberKey(b, i, end);
        if (i === FAIL) return FAIL;
        continue value;
      } else return FAIL;
    }
  }
}

/** A member's key and colon at `b[i]`; returns the index of its value (after whitespace). */
function memberKey(b: Uint8Array, i: number, end: number): number {
  if (b[i] !== QUOTE) return FAIL;
  i = scanString(b, i, end);
  if (i === FAIL) return FAIL;
  i = ws(b, i, end);
  if (b[i] !== COLON) return FAIL;
  return ws(b, i + 1, end);
}

/** Bytes that may stand in a string as they are: not a quote, a backslash or a control character. */
const PLAIN = Uint8Array.from({ length: 256 }, (_, c) => (c >= 0x20 && c !== QUOTE && c !== BACKSLASH ? 1 : 0));

/** The string at `b[i] === '"'`; returns the index after its closing quote. */
function scanString(b: Uint8Array, i: number, end: number): number {
  i++;
  for (;;) {
    while (i < end && PLAIN[b[i]!] === 1) i++;
    if (i >= end) return FAIL;
    const c = b[i]!;
    if (c === QUOTE) return i + 1;
    if (c !== BACKSLASH) return FAIL; // a control character
    const e = b[i + 1];
    if (e === 0x75 /* u */) {
      if (i + 6 > end || !isHex(b[i + 2]!) || !isHex(b[i + 3]!) || !isHex(b[i + 4]!) || !isHex(b[i + 5]!)) return FAIL;
      i += 6;
    } else if (e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
      i += 2;
    } else return FAIL;
  }
}

function isHex(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** The number at `b[i]`: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`. */
function scanNumber(b: Uint8Array, i: number, end: number): number {
  if (b[i] === MINUS) i++;
  if (b[i] === ZERO) i++;
  else if (isDigit(b[i])) i = digits(b, i, end);
  else return FAIL;
  if (b[i] === DOT) {
    if (!isDigit(b[i + 1])) return FAIL;
    i = digits(b, i + 1, end);
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++;
    if (b[i] === PLUS || b[i] === MINUS) i++;
    if (!isDigit(b[i])) return FAIL;
    i = digits(b, i, end);
  }
  return i;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= ZERO && c <= NINE;
}

function digits(b: Uint8Array, i: number, end: number): number {
  while (i < end && isDigit(b[i])) i++;
  return i;
}

const TRUE = keyBytes('true');
const FALSE = keyBytes('false');
const NULL = keyBytes('null');

/** `true`, `false` or `null` at `b[i]`. */
function scanLiteral(b: Uint8Array, i: number, end: number): number {
  const c = b[i];
  const word = c === 0x74 ? TRUE : c === 0x66 ? FALSE : c === 0x6e ? NULL : undefined;
  if (word === undefined || i + word.length > end) return FAIL;
  for (let k = 1; k < word.length; k++) if (b[i + k] !== word[k]) return FAIL;
  return i + word.length;
}

/** Past JSON whitespace (space, tab, LF, CR: not a BOM, which JSON.parse refuses too). */
function ws(b: Uint8Array, i: number, end: number): number {
  while (i < end && isWs(b[i]!)) i++;
  return i;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * Whether the key whose string spans `b[keyAt, keyEnd)` (quotes included) is `name`: byte for
 * byte, or, for a key written with escapes, as JSON.parse reads it.
 */
function keyIs(b: Uint8Array, keyAt: number, keyEnd: number, name: Uint8Array): boolean {
  const length = keyEnd - keyAt - 2;
  let escaped = false;
  if (length === name.length) {
    let k = 0;
    while (k < length && b[keyAt + 1 + k] === name[k]) k++;
    if (k === length) return true;
  }
  for (let k = keyAt + 1; k < keyEnd - 1 && !escaped; k++) escaped = b[k] === BACKSLASH;
  if (!escaped) return false;
  return JSON.parse(decodeUtf8(b, keyAt, keyEnd)) === String.fromCharCode(...name);
}
