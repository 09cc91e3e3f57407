import type { JsonObject, ResourceType } from '../../resources.js';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `example.com`, `v1`, `Widget` -> `com.example.v1.Widget`, as apiextensions-apiserver names a CRD's model. */
export function customResourceModelName(group: string, version: string, kind: string): string {
  return [...group.split('.').reverse(), version, kind].join('.');
}

/**
 * The `openAPIV3Schema` of the version of `crd` that `type` serves, or undefined when the CRD gives
 * none (the resource is then published as an object of any fields, as kube does).
 */
export function crdVersionSchema(crd: JsonObject | undefined, type: ResourceType): JsonObject | undefined {
  const spec = crd?.['spec'];
  if (!isObject(spec)) return undefined;
  const versions = Array.isArray(spec['versions']) ? (spec['versions'] as unknown[]) : [];
  const v = versions.find((x): x is JsonObject => isObject(x) && x['name'] === type.version);
  const schema = isObject(v?.['schema']) ? (v['schema'] as JsonObject)['openAPIV3Schema'] : undefined;
  return isObject(schema) ? schema : undefined;
}

const API_VERSION_DOC =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND_DOC =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const META_DOC = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/**
 * The model of a custom resource as kube publishes it (apiextensions-apiserver's OpenAPI builder):
 * the CRD's schema, with `apiVersion`, `kind` and `metadata` (a reference to ObjectMeta) set, and
 * the group-version-kind extension. Without a schema: an object of any fields.
 */
export function customResourceModel(type: ResourceType, schema: JsonObject | undefined, objectMetaRef: string): JsonObject {
  const gvk = [{ group: type.group, version: type.version, kind: type.kind }];
  const base: JsonObject = schema ? structuredClone(schema) : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const properties = isObject(base['properties']) ? base['properties'] : {};
  base['properties'] = {
    ...properties,
    apiVersion: { description: API_VERSION_DOC, type: 'string' },
    kind: { description: KIND_DOC, type: 'string' },
    metadata: { allOf: [{ $ref: objectMetaRef }], description: META_DOC },
  };
  base['type'] ??= 'object';
  base['x-kubernetes-group-version-kind'] = gvk;
  return base;
}

/** The `<Kind>List` model of a custom resource. */
export function customResourceListModel(type: ResourceType, itemRef: string, listMetaRef: string): JsonObject {
  return {
    description: `${type.kind}List is a list of ${type.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { description: API_VERSION_DOC, type: 'string' },
      items: { description: `List of ${type.plural.toLowerCase()}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`, type: 'array', items: { $ref: itemRef } },
      kind: { description: KIND_DOC, type: 'string' },
      metadata: { allOf: [{ $ref: listMetaRef }], description: "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds" },
    },
    'x-kubernetes-group-version-kind': [{ group: type.group, version: type.version, kind: `${type.kind}List` }],
  };
}
