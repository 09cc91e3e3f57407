import { labelKeyProblem as keyProblemOf, labelValueProblem as valueProblemOf } from '../../../labels/labelRequirement.js';
import { dns1035LabelProblem, subdomainProblem } from '../schema/dnsNames.js';
import type { ResourceType } from '../resources.js';
import { badRequest, type FieldError, type StatusError } from '../status.js';
import type { NameRule } from './strategy.js';

// Every write validates its labels and annotation keys, and the same few strings come back on
// every write: their verdicts are kept (a bounded memo, emptied when full).
const MEMO_LIMIT = 4096;
const memo = (check: (s: string) => string | undefined): ((s: string) => string | undefined) => {
  const known = new Map<string, string | undefined>();
  return (s) => {
    if (known.has(s)) return known.get(s);
    const problem = check(s);
    if (known.size >= MEMO_LIMIT) known.clear();
    known.set(s, problem);
    return problem;
  };
};
const labelKeyProblem = memo(keyProblemOf);
const labelValueProblem = memo(valueProblemOf);

// What a real API server refuses in an object's metadata, so that code tested here meets the same
// refusals: a field of the wrong JSON type fails decoding (400), a malformed name or label fails
// validation (422, apimachinery's ValidateObjectMeta). Nothing so refused is stored.

const LABEL_1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

const LABEL_1123_TEXT =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/** The JSON type a Go decoder names in its error ("cannot unmarshal number into ..."). */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

function decodeError(type: ResourceType, value: unknown, field: string, goType: string): StatusError {
  const gv = type.group ? `${type.group}/${type.version}` : type.version;
  return badRequest(
    `${type.kind} in version "${gv}" cannot be handled as a ${type.kind}: json: cannot unmarshal ${jsonKind(value)} into Go struct field ${field} of type ${goType}`,
  );
}

function checkStringMap(type: ResourceType, map: unknown, field: string): void {
  if (map === undefined || map === null) return;
  if (typeof map !== 'object' || Array.isArray(map)) throw decodeError(type, map, `ObjectMeta.${field}`, 'map[string]string');
  for (const v of Object.values(map)) if (v !== null && typeof v !== 'string') throw decodeError(type, v, `ObjectMeta.${field}`, 'string');
}

/**
 * The decode step of a write: `metadata` is an object and the fields the server reads have their
 * Go types (`null` counts as absent, as in Go). Throws a 400 StatusError otherwise.
 *
 * @example
 * ```ts
 * checkMetadataTypes(configMapType, { name: 123 }); // throws: 400 ... cannot unmarshal number ...
 * ```
 */
export function checkMetadataTypes(type: ResourceType, meta: unknown): void {
  if (meta === undefined || meta === null) return;
  if (typeof meta !== 'object' || Array.isArray(meta)) throw decodeError(type, meta, `${type.kind}.metadata`, 'v1.ObjectMeta');
  const m = meta as Record<string, unknown>;
  for (const f of ['name', 'generateName', 'namespace', 'resourceVersion', 'uid']) {
    const v = m[f];
    if (v !== undefined && v !== null && typeof v !== 'string') throw decodeError(type, v, `ObjectMeta.metadata.${f}`, 'string');
  }
  if (m.generation !== undefined && m.generation !== null && !Number.isInteger(m.generation)) {
    throw decodeError(type, m.generation, 'ObjectMeta.metadata.generation', 'int64');
  }
  checkStringMap(type, m.labels, 'metadata.labels');
  checkStringMap(type, m.annotations, 'metadata.annotations');
  const fin = m.finalizers;
  if (fin !== undefined && fin !== null) {
    if (!Array.isArray(fin)) throw decodeError(type, fin, 'ObjectMeta.metadata.finalizers', '[]string');
    for (const f of fin) if (typeof f !== 'string') throw decodeError(type, f, 'ObjectMeta.metadata.finalizers', 'string');
  }
}

/** A name's problem under `rule` (PIPELINE.md §3), or undefined. */
function nameProblem(rule: NameRule, name: string): string | undefined {
  switch (rule) {
    case 'pathSegment':
      if (name === '.' || name === '..') return `may not be '${name}'`;
      return /[/%]/.test(name) ? `may not contain '${name.includes('/') ? '/' : '%'}'` : undefined;
    case 'dns1123Label':
      if (name.length > 63) return 'must be no more than 63 characters';
      return LABEL_1123.test(name) ? undefined : LABEL_1123_TEXT;
    case 'dns1035Label':
      return dns1035LabelProblem(name);
    default:
      return subdomainProblem(name);
  }
}

/**
 * apimachinery's `ValidateObjectMeta`, for what the fake server keeps: the name's format under the
 * type's rule (on create: `name` is the given or generated one, `generated` says which; `checkName`
 * false on update, where the name is the stored one), label keys and values, annotation keys and
 * their total size. Every cause, for one 422.
 *
 * @example
 * ```ts
 * objectMetaErrors('subdomain', 'Web', { labels: { app: 'web app' } }, false); // two causes
 * ```
 */
export function objectMetaErrors(
  rule: NameRule,
  name: string,
  meta: { labels?: unknown; annotations?: unknown; generateName?: unknown },
  generated: boolean,
  checkName = true,
): FieldError[] {
  const errors: FieldError[] = [];
  const nameProblemText = checkName ? nameProblem(rule, name) : undefined;
  if (nameProblemText !== undefined) {
    const [field, value] = generated ? ['metadata.generateName', String(meta.generateName)] : ['metadata.name', name];
    errors.push({ field, type: 'FieldValueInvalid', body: `Invalid value: ${JSON.stringify(value)}: ${nameProblemText}` });
  }
  for (const [key, value] of Object.entries((meta.labels ?? {}) as Record<string, string | null>)) {
    // The label rules of the selector parser (one definition of a qualified name and a label value).
    const keyProblem = labelKeyProblem(key);
    if (keyProblem !== undefined) errors.push({ field: 'metadata.labels', type: 'FieldValueInvalid', body: `Invalid value: ${JSON.stringify(key)}: ${keyProblem}` });
    const v = value ?? '';
    const valueProblem = labelValueProblem(v);
    if (valueProblem !== undefined) errors.push({ field: 'metadata.labels', type: 'FieldValueInvalid', body: `Invalid value: ${JSON.stringify(v)}: ${valueProblem}` });
  }
  let annotationBytes = 0;
  for (const [key, value] of Object.entries((meta.annotations ?? {}) as Record<string, string | null>)) {
    const keyProblem = labelKeyProblem(key.toLowerCase());
    if (keyProblem !== undefined) errors.push({ field: 'metadata.annotations', type: 'FieldValueInvalid', body: `Invalid value: ${JSON.stringify(key)}: ${keyProblem}` });
    annotationBytes += key.length + (value ?? '').length;
  }
  if (annotationBytes > MAX_ANNOTATIONS_BYTES) {
    errors.push({ field: 'metadata.annotations', type: 'FieldValueTooLong', body: `Too long: must have at most ${MAX_ANNOTATIONS_BYTES} bytes` });
  }
  return errors;
}
