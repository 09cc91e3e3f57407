import { describe, expect, it } from '@jest/globals';
import { copyBytes, decodeUtf8Parts } from '../../lib/listwatch/utf8.js';

const text = '{"name":"héllo wörld ✓ 𝄞","n":1}';
const bytes = new TextEncoder().encode(text);

/** Every way to cut `bytes` in two and in three, as Uint8Arrays or as Buffers. */
function cuts(asBuffer: boolean): Uint8Array[][] {
  const wrap = (b: Uint8Array): Uint8Array => (asBuffer ? Buffer.from(b) : b);
  const out: Uint8Array[][] = [];
  for (let i = 0; i <= bytes.length; i++) {
    out.push([wrap(bytes.subarray(0, i)), wrap(bytes.subarray(i))]);
    for (let j = i; j <= bytes.length; j += 3)
      out.push([wrap(bytes.subarray(0, i)), wrap(bytes.subarray(i, j)), wrap(bytes.subarray(j))]);
  }
  return out;
}

describe('decodeUtf8Parts', () => {
  it.each([false, true])('gives the joined text for every cut, inside characters too (Buffer parts: %s)', (asBuffer) => {
    const all = cuts(asBuffer);
    expect(all.length).toBeGreaterThan(100);
    for (const parts of all) expect(decodeUtf8Parts(parts)).toBe(text);
  });

  it('decodes invalid sequences as the joined bytes would (U+FFFD)', () => {
    const bad = new Uint8Array([0x61, 0xe2, 0x62, 0x80, 0x63]);
    const whole = new TextDecoder().decode(bad);
    for (let i = 0; i <= bad.length; i++) {
      expect(decodeUtf8Parts([bad.subarray(0, i), bad.subarray(i)])).toBe(whole);
    }
  });
});

describe('copyBytes', () => {
  it('copies a range without sharing memory, keeping a Buffer a Buffer', () => {
    const chunk = Buffer.from('abcdef');
    const tail = copyBytes(chunk, 2, 6);
    chunk.fill(0);
    expect(Buffer.isBuffer(tail)).toBe(true);
    expect(Buffer.from(tail).toString()).toBe('cdef');
    const plain = copyBytes(new Uint8Array([1, 2, 3]), 1, 3);
    expect(Array.from(plain)).toEqual([2, 3]);
  });
});
