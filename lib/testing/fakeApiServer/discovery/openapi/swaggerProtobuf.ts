import type { JsonObject } from '../../resources.js';

/**
 * The Swagger 2.0 document as gnostic's `openapi.v2.Document` protobuf, what client-go's
 * `OpenAPISchema` asks `/openapi/v2` for (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`).
 * Field numbers are gnostic's OpenAPIv2.proto (facts of the format, written out here); proto3, so
 * zero values are left out. Extensions (`x-kubernetes-...`), defaults, enums and examples travel as
 * `Any.yaml` text, which JSON is.
 */

type Bytes = Buffer;
const EMPTY = Buffer.alloc(0);

function varint(v: number): Bytes {
  const out: number[] = [];
  let n = BigInt.asUintN(64, BigInt(Math.trunc(v)));
  do {
    const b = Number(n & 0x7fn);
    n >>= 7n;
    out.push(n ? b | 0x80 : b);
  } while (n);
  return Buffer.from(out);
}
const key = (n: number, wireType: number): Bytes => varint(n * 8 + wireType);
const bytes = (n: number, payload: Bytes): Bytes => Buffer.concat([key(n, 2), varint(payload.length), payload]);
/** A message field, written even when empty (a oneof member must be). */
const msg = (n: number, ...parts: Bytes[]): Bytes => bytes(n, Buffer.concat(parts));
const str = (n: number, s: unknown): Bytes => (typeof s === 'string' && s !== '' ? bytes(n, Buffer.from(s, 'utf8')) : EMPTY);
const strs = (n: number, a: unknown): Bytes[] => (Array.isArray(a) ? a.map((s) => str(n, String(s))) : []);
const bool = (n: number, b: unknown): Bytes => (b === true ? Buffer.concat([key(n, 0), varint(1)]) : EMPTY);
const int = (n: number, v: unknown): Bytes => (typeof v === 'number' && v !== 0 ? Buffer.concat([key(n, 0), varint(v)]) : EMPTY);
function double(n: number, v: unknown): Bytes {
  if (typeof v !== 'number' || v === 0) return EMPTY;
  const b = Buffer.alloc(8);
  b.writeDoubleLE(v);
  return Buffer.concat([key(n, 1), b]);
}
/** gnostic's Any: the value as YAML text (field 2). */
const any = (n: number, v: unknown): Bytes => (v === undefined ? EMPTY : msg(n, str(2, JSON.stringify(v))));
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
/** `x-...` keys as repeated NamedAny. */
const extensions = (n: number, o: JsonObject): Bytes[] => Object.entries(o).filter(([k]) => k.startsWith('x-')).map(([k, v]) => msg(n, str(1, k), any(2, v)));

function schema(s: JsonObject): Bytes {
  const parts: Bytes[] = [str(1, s['$ref']), str(2, s['format']), str(3, s['title']), str(4, s['description']), any(5, s['default'])];
  parts.push(double(6, s['multipleOf']), double(7, s['maximum']), bool(8, s['exclusiveMaximum']), double(9, s['minimum']), bool(10, s['exclusiveMinimum']));
  parts.push(int(11, s['maxLength']), int(12, s['minLength']), str(13, s['pattern']), int(14, s['maxItems']), int(15, s['minItems']), bool(16, s['uniqueItems']));
  parts.push(int(17, s['maxProperties']), int(18, s['minProperties']), ...strs(19, s['required']));
  if (Array.isArray(s['enum'])) parts.push(...s['enum'].map((v) => any(20, v)));
  const ap = s['additionalProperties'];
  if (isObject(ap)) parts.push(msg(21, msg(1, schema(ap))));
  else if (typeof ap === 'boolean') parts.push(msg(21, Buffer.concat([key(2, 0), varint(ap ? 1 : 0)])));
  if (typeof s['type'] === 'string') parts.push(msg(22, str(1, s['type'])));
  else if (Array.isArray(s['type'])) parts.push(msg(22, ...strs(1, s['type'])));
  const items = s['items'];
  if (isObject(items)) parts.push(msg(23, msg(1, schema(items))));
  else if (Array.isArray(items)) parts.push(msg(23, ...items.filter(isObject).map((i) => msg(1, schema(i)))));
  if (Array.isArray(s['allOf'])) parts.push(...s['allOf'].filter(isObject).map((x) => msg(24, schema(x))));
  if (isObject(s['properties'])) parts.push(msg(25, ...Object.entries(s['properties']).filter(([, v]) => isObject(v)).map(([k, v]) => msg(1, str(1, k), msg(2, schema(v as JsonObject))))));
  parts.push(bool(27, s['readOnly']), any(30, s['example']), ...extensions(31, s));
  return Buffer.concat(parts);
}

function parameter(p: JsonObject): Bytes {
  if (p['in'] === 'body') {
    return msg(1, msg(1, str(1, p['description']), str(2, p['name']), str(3, p['in']), bool(4, p['required']), isObject(p['schema']) ? msg(5, schema(p['schema'])) : EMPTY));
  }
  const common = [bool(1, p['required']), str(2, p['in']), str(3, p['description']), str(4, p['name'])];
  // Query (and form) parameters have allow_empty_value at 5, so their type is at 6; path ones at 5.
  const sub = p['in'] === 'path' ? msg(4, ...common, str(5, p['type'])) : msg(3, ...common, str(6, p['type']), bool(20, p['uniqueItems']));
  return msg(1, msg(2, sub));
}

function operation(o: JsonObject): Bytes {
  const params = Array.isArray(o['parameters']) ? o['parameters'].filter(isObject).map((p) => msg(8, parameter(p))) : [];
  const responses = isObject(o['responses'])
    ? msg(
        9,
        ...Object.entries(o['responses']).map(([code, r]) => {
          const resp = r as JsonObject;
          return msg(1, str(1, code), msg(2, msg(1, str(1, resp['description']), isObject(resp['schema']) ? msg(2, msg(1, schema(resp['schema']))) : EMPTY)));
        }),
      )
    : EMPTY;
  return Buffer.concat([...strs(1, o['tags']), str(3, o['description']), str(5, o['operationId']), ...strs(6, o['produces']), ...strs(7, o['consumes']), ...params, responses, ...extensions(13, o)]);
}

const VERBS: { readonly [verb: string]: number } = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 };

function pathItem(item: JsonObject): Bytes {
  const parts: Bytes[] = [];
  for (const [verb, n] of Object.entries(VERBS)) if (isObject(item[verb])) parts.push(msg(n, operation(item[verb] as JsonObject)));
  if (Array.isArray(item['parameters'])) parts.push(...item['parameters'].filter(isObject).map((p) => msg(9, parameter(p))));
  return Buffer.concat(parts);
}

/** Encodes a Swagger 2.0 document (as {@link swaggerV2} builds it) as a gnostic `openapi.v2.Document`. */
export function swaggerV2Protobuf(doc: JsonObject): Buffer {
  const info = isObject(doc['info']) ? doc['info'] : {};
  const paths = isObject(doc['paths']) ? doc['paths'] : {};
  const definitions = isObject(doc['definitions']) ? doc['definitions'] : {};
  return Buffer.concat([
    str(1, doc['swagger']),
    msg(2, str(1, info['title']), str(2, info['version'])),
    msg(8, ...Object.entries(paths).map(([p, item]) => msg(2, str(1, p), msg(2, pathItem(item as JsonObject))))),
    msg(9, ...Object.entries(definitions).map(([name, s]) => msg(1, str(1, name), msg(2, schema(s as JsonObject))))),
  ]);
}
