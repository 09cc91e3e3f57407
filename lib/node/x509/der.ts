/**
 * Internal: the few DER (ASN.1) encodings an X.509 certificate needs, as Buffers. Shared by
 * rxkube/webhooks' certificates and the fake API server's; no other code should need it.
 */

const length = (n: number): Buffer => {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let x = n; x > 0; x = Math.floor(x / 256)) bytes.unshift(x & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
};

/** A tag-length-value of `tag` around the concatenated `parts`. */
export const tlv = (tag: number, ...parts: ReadonlyArray<Buffer>): Buffer => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};

export const sequence = (...parts: ReadonlyArray<Buffer>): Buffer => tlv(0x30, ...parts);
export const set = (...parts: ReadonlyArray<Buffer>): Buffer => tlv(0x31, ...parts);

/** A non-negative INTEGER from its big-endian bytes (a 0 byte is prefixed when the top bit is set). */
export const integer = (bytes: Buffer): Buffer => tlv(0x02, bytes[0] & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);

export const objectIdentifier = (dotted: string): Buffer => {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [40 * a + b];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let x = Math.floor(n / 128); x > 0; x = Math.floor(x / 128)) chunk.unshift(0x80 | (x & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
};

export const utf8String = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
export const bitString = (bytes: Buffer, unusedBits = 0): Buffer => tlv(0x03, Buffer.from([unusedBits]), bytes);
export const octetString = (bytes: Buffer): Buffer => tlv(0x04, bytes);
/** `[n] EXPLICIT`: a constructed context-specific tag around `inner`. */
export const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 + n, inner);
export const TRUE: Buffer = tlv(0x01, Buffer.from([0xff]));

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 4.1.2.5). */
export const time = (d: Date): Buffer => {
  const s = d.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${s.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${s}Z`));
};

/** PEM armour (64-character lines) around DER bytes. */
export const pem = (label: string, der: Buffer): string =>
  `-----BEGIN ${label}-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;
