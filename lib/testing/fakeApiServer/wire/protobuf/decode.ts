import type { JsonObject } from '../../resources.js';
import { DECODABLE_KINDS, MESSAGES } from './messages.js';
import { ProtobufWireError, signed, text, wireFields, type WireField } from './wire.js';

/**
 * A protobuf body the fake server cannot turn into JSON: a kind without a field table, or a field
 * of a known message that the tables lack (decoding on without it would silently lose data).
 */
export class UndecodableProtobufError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UndecodableProtobufError';
  }
}

interface FieldSpec {
  readonly name: string;
  readonly type: string;
  readonly keepZero: boolean;
  readonly inline: boolean;
}

const tables = new Map<string, ReadonlyMap<number, FieldSpec>>();

function table(message: string): ReadonlyMap<number, FieldSpec> {
  let t = tables.get(message);
  if (t) return t;
  const spec = MESSAGES[message];
  if (spec === undefined) throw new UndecodableProtobufError(`no field table for message ${message}`);
  const fields = new Map<number, FieldSpec>();
  for (const entry of spec.split(/\s+/).filter((e) => e !== '')) {
    const m = /^(\^?)(\w+)(!?)=(\d+):(.+)$/.exec(entry);
    if (!m) throw new Error(`bad field table entry ${message}.${entry}`);
    fields.set(Number(m[4]), { name: m[2], type: m[5], keepZero: m[3] === '!', inline: m[1] === '^' });
  }
  tables.set(message, (t = fields));
  return t;
}

const bytesOf = (f: WireField, message: string, name: string): Uint8Array => {
  if (f.wireType !== 2) throw new ProtobufWireError(`${message}.${name}: expected a length-delimited field, got wire type ${f.wireType}`);
  return f.value;
};
const varintOf = (f: WireField, message: string, name: string): bigint => {
  if (f.wireType !== 0) throw new ProtobufWireError(`${message}.${name}: expected a varint, got wire type ${f.wireType}`);
  return f.value;
};

/** meta/v1 Time: seconds since the epoch, RFC 3339 in JSON; empty (the zero time) is absent. */
function time(bytes: Uint8Array): string | undefined {
  let seconds = 0;
  for (const f of wireFields(bytes)) if (f.number === 1 && f.wireType === 0) seconds = signed(f.value);
  if (bytes.length === 0 || seconds === -62135596800) return undefined;
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

function intOrString(bytes: Uint8Array): number | string {
  let type = 0;
  let intVal = 0;
  let strVal = '';
  for (const f of wireFields(bytes)) {
    if (f.number === 1) type = signed(varintOf(f, 'IntOrString', 'type'));
    else if (f.number === 2) intVal = signed(varintOf(f, 'IntOrString', 'intVal'));
    else if (f.number === 3) strVal = text(bytesOf(f, 'IntOrString', 'strVal'));
  }
  return type === 1 ? strVal : intVal;
}

const firstString = (bytes: Uint8Array, message: string): string => {
  for (const f of wireFields(bytes)) if (f.number === 1) return text(bytesOf(f, message, 'string'));
  return '';
};

function fieldsV1(bytes: Uint8Array): unknown {
  for (const f of wireFields(bytes)) if (f.number === 1) return JSON.parse(text(bytesOf(f, 'FieldsV1', 'Raw'))) as unknown;
  return {};
}

/** One value of `type` (a scalar, a special meta type, or a message). */
function value(type: string, f: WireField, message: string, name: string): unknown {
  switch (type) {
    case 'string':
      return text(bytesOf(f, message, name));
    case 'bytes':
      return Buffer.from(bytesOf(f, message, name)).toString('base64');
    case 'bool':
      return varintOf(f, message, name) !== 0n;
    case 'int32':
    case 'int64':
      return signed(varintOf(f, message, name));
    case 'time':
      return time(bytesOf(f, message, name));
    case 'intstr':
      return intOrString(bytesOf(f, message, name));
    case 'quantity':
      return firstString(bytesOf(f, message, name), 'Quantity');
    case 'fieldsV1':
      return fieldsV1(bytesOf(f, message, name));
    default:
      return decodeMessage(type, bytesOf(f, message, name));
  }
}

const isZero = (v: unknown): boolean => v === '' || v === 0 || v === false;

/**
 * Decodes one message by its field table into the JSON object Go's encoder would write for the
 * same value. A field number the table lacks is an {@link UndecodableProtobufError}.
 */
export function decodeMessage(message: string, bytes: Uint8Array): JsonObject {
  const fields = table(message);
  const out: JsonObject = {};
  for (const f of wireFields(bytes)) {
    const spec = fields.get(f.number);
    if (!spec) throw new UndecodableProtobufError(`field ${f.number} of ${message} is not known to this fake API server`);
    const { name, type } = spec;
    const repeated = /^\[\](.+)$/.exec(type);
    const map = /^map<(.+)>$/.exec(type);
    if (repeated) {
      ((out[name] ??= []) as unknown[]).push(value(repeated[1], f, message, name));
    } else if (map) {
      let key = '';
      let v: unknown = map[1] === 'string' || map[1] === 'bytes' || map[1] === 'quantity' ? '' : undefined;
      for (const e of wireFields(bytesOf(f, message, name))) {
        if (e.number === 1) key = text(bytesOf(e, message, `${name} key`));
        else if (e.number === 2) v = value(map[1], e, message, name);
      }
      ((out[name] ??= {}) as JsonObject)[key] = v;
    } else if (spec.inline) {
      Object.assign(out, value(type, f, message, name));
    } else {
      const v = value(type, f, message, name);
      if (v === undefined || (!spec.keepZero && isZero(v))) delete out[name];
      else out[name] = v;
    }
  }
  return out;
}

/** `k8s\0`: the prefix of every Kubernetes protobuf body. */
export const PROTOBUF_MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/**
 * Decodes a Kubernetes protobuf body (`application/vnd.kubernetes.protobuf`): the `k8s\0` magic,
 * then a runtime.Unknown envelope (typeMeta, raw) whose raw bytes are the object's own message.
 * Returns the object as JSON with `apiVersion` and `kind`.
 *
 * @throws UndecodableProtobufError for a kind or field the tables lack; ProtobufWireError for bytes that are not protobuf.
 */
export function decodeKubernetesProtobuf(body: Uint8Array): JsonObject {
  if (body.length < 4 || PROTOBUF_MAGIC.some((b, i) => body[i] !== b)) throw new ProtobufWireError('the body does not start with the k8s\\0 magic');
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array = new Uint8Array();
  for (const f of wireFields(body.subarray(4))) {
    if (f.number === 1) {
      for (const t of wireFields(bytesOf(f, 'Unknown', 'typeMeta'))) {
        if (t.number === 1) apiVersion = text(bytesOf(t, 'TypeMeta', 'apiVersion'));
        else if (t.number === 2) kind = text(bytesOf(t, 'TypeMeta', 'kind'));
      }
    } else if (f.number === 2) raw = bytesOf(f, 'Unknown', 'raw');
  }
  const message = DECODABLE_KINDS[`${apiVersion}/${kind}`];
  if (!message) throw new UndecodableProtobufError(`this fake API server does not decode protobuf bodies of kind ${kind || '(none)'} in ${apiVersion || '(no apiVersion)'}`);
  return { apiVersion, kind, ...decodeMessage(message, raw) };
}
