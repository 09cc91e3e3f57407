// The one place where the form of an answer is chosen (the read path's last stage: conversion to
// the requested version, then full objects, their metadata or a Table).
//
// The form a read answers in (APISERVER.md: content negotiation), as kube-apiserver negotiates it:
// the object(s) as stored; `application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1` turns
// a list into a meta.k8s.io/v1 PartialObjectMetadataList and `as=PartialObjectMetadata` turns a
// watched or fetched object into a PartialObjectMetadata (apiVersion, kind and the whole metadata; no
// spec, no status); `as=Table` (v1 or v1beta1) turns a GET, a LIST or each watch event into a
// meta.k8s.io Table (printers/). Statuses (ERROR events) are sent as they are.
import type { SubresourceForm } from '../registry/strategy.js';
import type { JsonObject, ResourceType } from '../resources.js';
import { failure, StatusError } from '../status.js';
import type { TableGroupVersion } from '../printers/table.js';

/**
 * What a read sends: the objects, their metadata only, or a Table of the given meta.k8s.io version.
 *
 * @example
 * ```ts
 * const form: OutputForm = { table: 'meta.k8s.io/v1' };
 * ```
 */
export type OutputForm = 'full' | 'metadata' | { readonly table: TableGroupVersion };

/**
 * The Table group version a form asks for, if it asks for a Table.
 *
 * @example
 * ```ts
 * tableVersionOf({ table: 'meta.k8s.io/v1' }); // 'meta.k8s.io/v1'
 * ```
 */
export const tableVersionOf = (form: OutputForm): TableGroupVersion | undefined => (typeof form === 'object' ? form.table : undefined);

const acceptedTypes = 'application/json, application/yaml, application/vnd.kubernetes.protobuf';
const notAcceptable = (message = `only the following media types are accepted: ${acceptedTypes}`): StatusError =>
  new StatusError(failure(406, 'NotAcceptable', message));

interface Clause {
  readonly type: string;
  readonly params: ReadonlyMap<string, string>;
}

function parseAccept(header: string): Clause[] {
  return header.split(',').map((raw) => {
    const [type, ...rest] = raw.split(';').map((s) => s.trim());
    const params = new Map<string, string>();
    for (const p of rest) {
      const eq = p.indexOf('=');
      if (eq > 0) params.set(p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1'));
    }
    return { type: (type ?? '').toLowerCase(), params };
  });
}

/**
 * The form a GET, a LIST or a WATCH answers in, from the request's Accept header, as kube's
 * negotiation picks it: the first clause this server can serve wins (`application/json`, `*\/*` and
 * `application/*` are JSON; `as=` with `g=meta.k8s.io` and `v=v1` or `v1beta1` asks for a
 * conversion: `Table` for every verb, `PartialObjectMetadataList` for a list, `PartialObjectMetadata`
 * for one object or watch events). A clause it cannot serve (YAML, protobuf, an unknown `as=`) is
 * skipped; no clause left is a 406. Asking a list for `as=PartialObjectMetadata`, or an object or a
 * watch for `as=PartialObjectMetadataList`, is a 406 too (kube: "you requested PartialObjectMetadata,
 * but the requested object is a list"; this fake refuses the watch case before streaming).
 */
export function negotiateOutput(accept: string | undefined, verb: 'get' | 'list' | 'watch'): OutputForm {
  if (accept === undefined || accept.trim() === '') return 'full';
  for (const clause of parseAccept(accept)) {
    if (clause.type !== 'application/json' && clause.type !== '*/*' && clause.type !== 'application/*') continue;
    const as = clause.params.get('as');
    if (as === undefined) return 'full';
    const g = clause.params.get('g');
    const v = clause.params.get('v');
    if (g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1')) continue;
    if (as === 'Table') return { table: `meta.k8s.io/${v}` };
    if (as === 'PartialObjectMetadataList') {
      if (verb === 'list') return 'metadata';
      throw notAcceptable(
        verb === 'get'
          ? 'you requested PartialObjectMetadataList, but the requested object is not a list'
          : 'you requested PartialObjectMetadataList, but the requested object is not a list (watch events carry one object each)',
      );
    }
    if (as === 'PartialObjectMetadata') {
      if (verb !== 'list') return 'metadata';
      throw notAcceptable('you requested PartialObjectMetadata, but the requested object is a list');
    }
  }
  throw notAcceptable();
}

/** The PartialObjectMetadata of one stored object's JSON. */
export function partialObjectMetadataJson(objectJson: string): string {
  const obj = JSON.parse(objectJson) as { metadata?: unknown };
  return `{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":${JSON.stringify(obj.metadata ?? {})}}`;
}

/** A watch line with its object as PartialObjectMetadata; ERROR lines (Statuses) unchanged. */
export function metadataWatchLine(line: string): string {
  let event: { type: string; object: unknown };
  try {
    event = JSON.parse(line) as { type: string; object: unknown };
  } catch {
    return line; // a deliberately malformed line (faults) stays malformed
  }
  if (event.type === 'ERROR') return line;
  return `{"type":"${event.type}","object":${partialObjectMetadataJson(JSON.stringify(event.object))}}\n`;
}

/** The kind and apiVersion a metadata-only list is sent as. */
export const metadataListHead = { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1' } as const;

/**
 * An object's JSON at another apiVersion: the read path's conversion between versions of one
 * resource (built-in versions and CRD versions with conversion `None` differ here only by
 * apiVersion; field-by-field conversion is not done).
 *
 * @example
 * ```ts
 * convertedJson('{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler"}', 'autoscaling/v1');
 * ```
 */
export function convertedJson(json: string, apiVersion: string): string {
  const obj = JSON.parse(json) as { apiVersion?: unknown };
  if (obj.apiVersion === apiVersion) return json;
  return JSON.stringify({ ...obj, apiVersion });
}

/**
 * How stored objects leave the server for one request: converted to the requested version, as
 * full objects or as their metadata (a Table is built by the handler from the converted objects).
 *
 * @example
 * ```ts
 * const out = outputFor('full', requestType, storageType.apiVersion);
 * writeJson(res, 200, out.object(stored.json));
 * ```
 */
export interface Output {
  readonly form: OutputForm;
  /** The kind and apiVersion of a list answer. */
  readonly listHead: { readonly kind: string; readonly apiVersion: string };
  /** One object as answered (a get, a write's answer, a list item). */
  object(json: string): string;
  /** One watch line as sent; undefined when lines go as stored. */
  readonly watchLine?: (line: string) => string;
}

/**
 * The output of a request for `type` (the version it asked for), whose objects are stored at
 * `storageApiVersion`, in `form`.
 *
 * @example
 * ```ts
 * outputFor('metadata', podsType, 'v1').listHead.kind; // 'PartialObjectMetadataList'
 * ```
 */
export function outputFor(form: OutputForm, type: ResourceType, storageApiVersion: string): Output {
  if (form === 'metadata') return { form, listHead: metadataListHead, object: partialObjectMetadataJson, watchLine: metadataWatchLine };
  const listHead = { kind: type.listKind, apiVersion: type.apiVersion };
  if (type.apiVersion === storageApiVersion) return { form, listHead, object: (json) => json };
  const object = (json: string) => convertedJson(json, type.apiVersion);
  const watchLine = (line: string): string => {
    const event = JSON.parse(line) as { type: string; object: { apiVersion?: unknown } };
    if (event.type === 'ERROR' || event.type === 'BOOKMARK') return line;
    return `${JSON.stringify({ type: event.type, object: { ...event.object, apiVersion: type.apiVersion } })}\n`;
  };
  return { form, listHead, object, watchLine };
}

/**
 * How a subresource with an object of its own (a Scale) leaves the server: the view of each stored
 * parent it answers about (a GET, a write's answer).
 *
 * @example
 * ```ts
 * writeJson(res, 200, subresourceOutput(form).object(stored.json)); // {"kind":"Scale",...}
 * ```
 */
export function subresourceOutput(form: SubresourceForm): Output {
  return { form: 'full', listHead: { kind: `${form.kind}List`, apiVersion: form.apiVersion }, object: (json) => JSON.stringify(form.read(JSON.parse(json) as JsonObject)) };
}
