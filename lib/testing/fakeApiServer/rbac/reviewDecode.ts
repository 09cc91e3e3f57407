// Reading a review's body as kube's JSON decoder does: a field of the wrong JSON type is a 400
// naming the Go field and type; `null` counts as absent.
import { badRequest, type StatusError } from '../status.js';

/** A decoded JSON object. */
export type JsonMap = { readonly [key: string]: unknown };

const jsonKind = (v: unknown): string => (Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v);

const isMap = (v: unknown): v is JsonMap => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Typed reads of one kind's body; each throws kube's 400 for a value of the wrong type.
 *
 * @example
 * ```ts
 * const read = reviewDecoder('SelfSubjectAccessReview');
 * const verb = read.string(attrs.verb, 'ResourceAttributes.spec.resourceAttributes.verb');
 * ```
 */
export interface ReviewDecoder {
  /** The body itself: an object. */
  body(value: unknown): JsonMap;
  object(value: unknown, field: string, goType: string): JsonMap | undefined;
  string(value: unknown, field: string): string;
  strings(value: unknown, field: string): string[];
  stringLists(value: unknown, field: string): { [key: string]: string[] };
}

/**
 * The decoder of an `authorization.k8s.io/v1` (or other group's) kind.
 *
 * @example
 * ```ts
 * reviewDecoder('TokenRequest', 'authentication.k8s.io/v1').body(42); // throws 400
 * ```
 */
export function reviewDecoder(kind: string, groupVersion = 'authorization.k8s.io/v1'): ReviewDecoder {
  const fail = (value: unknown, into: string): StatusError =>
    badRequest(`${kind} in version "${groupVersion.split('/')[1]}" cannot be handled as a ${kind}: json: cannot unmarshal ${jsonKind(value)} into ${into}`);
  const field = (name: string, goType: string) => `Go struct field ${name} of type ${goType}`;
  const string = (value: unknown, name: string): string => {
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string') throw fail(value, field(name, 'string'));
    return value;
  };
  const strings = (value: unknown, name: string): string[] => {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) throw fail(value, field(name, '[]string'));
    return value.map((v) => string(v, name));
  };
  return {
    body: (value) => {
      if (!isMap(value)) throw fail(value, `Go value of type v1.${kind}`);
      return value;
    },
    object: (value, name, goType) => {
      if (value === undefined || value === null) return undefined;
      if (!isMap(value)) throw fail(value, field(name, goType));
      return value;
    },
    string,
    strings,
    stringLists: (value, name) => {
      if (value === undefined || value === null) return {};
      if (!isMap(value)) throw fail(value, field(name, 'map[string]v1.ExtraValue'));
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strings(v, name)]));
    },
  };
}
