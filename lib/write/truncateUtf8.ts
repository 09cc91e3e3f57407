/**
 * Internal: the longest prefix of `s` that is at most `maxBytes` bytes in UTF-8, cut between code
 * points (never inside a surrogate pair). The API server limits Event notes in bytes (Go's `len`),
 * not in UTF-16 units. A lone surrogate counts 3 bytes: it goes on the wire as U+FFFD.
 */
export function truncateUtf8(s: string, maxBytes: number): string {
  // Fast path: every UTF-16 unit is at most 3 bytes.
  if (s.length * 3 <= maxBytes) return s;
  let bytes = 0;
  let end = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes > maxBytes) return s.slice(0, end);
    end += ch.length;
  }
  return s;
}
