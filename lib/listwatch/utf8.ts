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
