import { concatBytes } from '../transport/streamRequest.js';

/** Node's Buffer decodes a range without a subarray view; found by duck typing, so no Node import. */
interface Utf8Sliceable {
  utf8Slice(start: number, end: number): string;
}

// ignoreBOM keeps a BOM in the text, as Buffer does: both paths give the same string.
const textDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Decodes `bytes[start, end)` as UTF-8. On Node (a `Buffer` chunk) this is Buffer's own decoder,
 * which reads the range in place; elsewhere a `TextDecoder` on a subarray view. Neither copies the
 * chunk. Invalid sequences become U+FFFD on both paths.
 *
 * @example
 * ```ts
 * decodeUtf8(new TextEncoder().encode('{"a":"é"}\n'), 0, 10); // '{"a":"é"}'
 * ```
 */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  const slice = (bytes as Partial<Utf8Sliceable>).utf8Slice;
  if (typeof slice === 'function') return slice.call(bytes, start, end);
  return textDecoder.decode(bytes.subarray(start, end));
}

/**
 * Decodes byte parts that are one text cut at arbitrary points (a list body's chunks, a watch line
 * that spans chunks). Each part is decoded in place with {@link decodeUtf8} and the strings joined,
 * unless a cut falls inside a multi-byte character (a part starting with a continuation byte):
 * only then are the parts copied into one array and decoded together. Either way the text is what
 * decoding the joined bytes gives.
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode('{"a":"é"}');
 * decodeUtf8Parts([bytes.subarray(0, 7), bytes.subarray(7)]); // '{"a":"é"}' (cut inside é: joined)
 * ```
 */
export function decodeUtf8Parts(parts: ReadonlyArray<Uint8Array>): string {
  if (parts.length === 1) return decodeUtf8(parts[0]!, 0, parts[0]!.length);
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.length > 0 && (part[0]! & 0xc0) === 0x80) {
      const joined = concatBytes(parts);
      return decodeUtf8(joined, 0, joined.length);
    }
  }
  let text = '';
  for (const part of parts) text += decodeUtf8(part, 0, part.length);
  return text;
}

/**
 * A copy of `bytes[start, end)` of the same kind (a `Buffer` stays a `Buffer`, so it keeps the
 * in-place decoder), sharing no memory with `bytes`: Buffer's own `slice` would not copy.
 *
 * @example
 * ```ts
 * const tail = copyBytes(chunk, lastNewline + 1, chunk.length); // chunk may now be reused
 * ```
 */
export function copyBytes(bytes: Uint8Array, start: number, end: number): Uint8Array {
  return Uint8Array.prototype.slice.call(bytes, start, end);
}
