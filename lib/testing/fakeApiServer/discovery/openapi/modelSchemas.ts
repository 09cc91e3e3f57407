import type { JsonObject } from '../../resources.js';
import { modelDocs } from './modelDocs.js';

/** One entry of a client-node model's static `attributeTypeMap`. */
interface Attribute {
  readonly name: string;
  readonly baseName: string;
  readonly type: string;
  readonly format: string;
}

/**
 * The @kubernetes/client-node module (its exports by name); model classes carry `attributeTypeMap`.
 *
 * @example
 * ```ts
 * const models: ClientNodeModels = await import('@kubernetes/client-node');
 * ```
 */
export type ClientNodeModels = { readonly [name: string]: unknown };

export const attributesOf = (models: ClientNodeModels, className: string): ReadonlyArray<Attribute> | undefined => {
  const c = models[className];
  const map = typeof c === 'function' ? (c as { attributeTypeMap?: unknown }).attributeTypeMap : undefined;
  return Array.isArray(map) ? (map as Attribute[]) : undefined;
};

// apimachinery's meta/v1 types live in one package whatever group refers to them.
const META = new Set(['ObjectMeta', 'ListMeta', 'OwnerReference', 'ManagedFieldsEntry', 'LabelSelector', 'LabelSelectorRequirement', 'Condition', 'Status', 'StatusDetails', 'StatusCause', 'DeleteOptions', 'Preconditions', 'WatchEvent', 'APIResource', 'APIResourceList', 'APIGroup', 'APIGroupList', 'APIVersions', 'GroupVersionForDiscovery', 'ServerAddressByClientCIDR']);

/** `V1PodSpec` -> `{ version: 'v1', name: 'PodSpec' }`; `CoreV1Event` -> `{ version: 'v1', name: 'Event' }`. */
export function splitClassName(className: string): { version: string; name: string } | undefined {
  const m = /^(?:[A-Z][a-z]+)?(V\d+(?:(?:alpha|beta)\d+)?)([A-Z]\w*)$/.exec(className);
  return m ? { version: m[1].toLowerCase(), name: m[2] } : undefined;
}

/** The Go package prefix kube names a group's models with (`io.k8s.api.apps`, ...). */
export function packagePrefix(group: string): string {
  if (group === '') return 'io.k8s.api.core';
  if (group === 'apiextensions.k8s.io') return 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions';
  return `io.k8s.api.${group.split('.')[0]}`;
}

/** The client-node class of a built-in kind (`V1Pod`, `CoreV1Event`, `EventsV1Event`), or undefined. */
export function modelClassOf(models: ClientNodeModels, group: string, version: string, kind: string): string | undefined {
  const ver = version.charAt(0).toUpperCase() + version.slice(1);
  const prefix = group === '' ? 'Core' : group.split('.')[0].charAt(0).toUpperCase() + group.split('.')[0].slice(1);
  return [`${prefix}${ver}${kind}`, `${ver}${kind}`].find((c) => attributesOf(models, c)?.some((a) => a.name === 'kind'));
}

const scalar = (type: string, format: string): JsonObject | undefined => {
  switch (type) {
    case 'string':
      return format ? { type: 'string', format } : { type: 'string' };
    case 'number':
      return format === 'int32' || format === 'int64' ? { type: 'integer', format } : { type: 'number', ...(format ? { format } : {}) };
    case 'boolean':
      return { type: 'boolean' };
    case 'Date':
    case 'V1MicroTime':
      return { type: 'string', format: 'date-time' };
    case 'IntOrString':
      return { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
    case 'any':
      return { 'x-kubernetes-preserve-unknown-fields': true };
    default:
      return undefined;
  }
};

/**
 * OpenAPI v3 component schemas built from client-node's models (the `attributeTypeMap` of each
 * class for names and types, the declaration files for descriptions and required fields), named
 * as kube names them (`io.k8s.api.core.v1.PodSpec`). One instance per group: nested models are
 * named in the package of the group that reaches them.
 */
export class ModelSchemas {
  /** Component name -> schema, for every model added so far and every model it refers to. */
  readonly schemas = new Map<string, JsonObject>();
  private readonly names = new Map<string, string>();

  constructor(
    private readonly models: ClientNodeModels,
    private readonly group: string,
  ) {}

  /** The component name of `className` (adding it and what it refers to), or undefined for a class client-node lacks. */
  add(className: string, gvk?: { group: string; version: string; kind: string }): string | undefined {
    const known = this.names.get(className);
    if (known) return known;
    const attrs = attributesOf(this.models, className);
    const split = splitClassName(className);
    if (!attrs || !split) return undefined;
    const pkg = META.has(split.name) ? 'io.k8s.apimachinery.pkg.apis.meta' : packagePrefix(this.group);
    const name = `${pkg}.${split.version}.${split.name}`;
    this.names.set(className, name);
    const docs = modelDocs(className);
    const properties: JsonObject = {};
    const schema: JsonObject = { ...(docs.description ? { description: docs.description } : {}), type: 'object', properties };
    this.schemas.set(name, schema);
    for (const a of attrs) {
      const s = this.typeSchema(a.type, a.format);
      // The generator drops the description of a field whose type is a model; the model's own stands in.
      const described = docs.properties.get(a.name) ?? (s['$ref'] ? modelDocs(a.type).description : undefined);
      properties[a.baseName] = described ? (s['$ref'] ? { allOf: [s], description: described } : { ...s, description: described }) : s;
    }
    const required = docs.required.filter((r) => attrs.some((a) => a.name === r)).map((r) => attrs.find((a) => a.name === r)!.baseName);
    if (required.length) schema['required'] = required;
    if (gvk) schema['x-kubernetes-group-version-kind'] = [gvk];
    return name;
  }

  private typeSchema(type: string, format: string): JsonObject {
    const array = /^Array<(.+)>$/.exec(type);
    if (array) return { type: 'array', items: this.typeSchema(array[1], format) };
    const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
    if (map) return { type: 'object', additionalProperties: this.typeSchema(map[1], format) };
    const s = scalar(type, format);
    if (s) return s;
    const ref = this.add(type);
    return ref ? { $ref: `#/components/schemas/${ref}` } : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  }
}
