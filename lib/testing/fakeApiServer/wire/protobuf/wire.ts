/**
 * The protobuf wire format, read side: a cursor over a message's bytes that yields its fields
 * (number, wire type, value). Enough for the proto2 messages Kubernetes sends (varints, 64- and
 * 32-bit fixed values, length-delimited bytes); groups (wire types 3 and 4) are refused.
 */

/** A malformed protobuf message (truncated, an over-long varint, a group). */
export class ProtobufWireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufWireError';
  }
}

/** One field as read off the wire. */
export type WireField =
  | { readonly number: number; readonly wireType: 0; readonly value: bigint }
  | { readonly number: number; readonly wireType: 1 | 5; readonly value: Uint8Array }
  | { readonly number: number; readonly wireType: 2; readonly value: Uint8Array };

function readVarint(buf: Uint8Array, pos: number): { value: bigint; next: number } {
  let result = 0n;
  let shift = 0n;
  for (let i = 0; i < 10; i++) {
    if (pos >= buf.length) throw new ProtobufWireError('truncated varint');
    const b = buf[pos++];
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return { value: result, next: pos };
    shift += 7n;
  }
  throw new ProtobufWireError('varint longer than 10 bytes');
}

/** The fields of one message, in wire order (repeated fields appear once per element). */
export function* wireFields(buf: Uint8Array): Generator<WireField> {
  let pos = 0;
  while (pos < buf.length) {
    const key = readVarint(buf, pos);
    pos = key.next;
    const number = Number(key.value >> 3n);
    const wireType = Number(key.value & 7n);
    if (number === 0) throw new ProtobufWireError('field number 0');
    switch (wireType) {
      case 0: {
        const v = readVarint(buf, pos);
        pos = v.next;
        yield { number, wireType, value: v.value };
        break;
      }
      case 1:
      case 5: {
        const size = wireType === 1 ? 8 : 4;
        if (pos + size > buf.length) throw new ProtobufWireError(`truncated fixed${size * 8} field ${number}`);
        yield { number, wireType, value: buf.subarray(pos, pos + size) };
        pos += size;
        break;
      }
      case 2: {
        const len = readVarint(buf, pos);
        pos = len.next;
        const end = pos + Number(len.value);
        if (len.value > BigInt(buf.length) || end > buf.length) throw new ProtobufWireError(`truncated length-delimited field ${number}`);
        yield { number, wireType, value: buf.subarray(pos, end) };
        pos = end;
        break;
      }
      default:
        throw new ProtobufWireError(`unsupported wire type ${wireType} (field ${number})`);
    }
  }
}

/** A varint as a signed 64-bit integer (int32 and int64 fields both travel as 64-bit two's complement). */
export const signed = (v: bigint): number => Number(BigInt.asIntN(64, v));

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A length-delimited field as UTF-8 text; invalid UTF-8 is a {@link ProtobufWireError}. */
export function text(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ProtobufWireError('a string field is not valid UTF-8');
  }
}
