import type { JsonObject, ResourceType } from '../resources.js';

/**
 * The part of an OpenAPI v3 schema that server-side apply reads: nested `properties`, `items`,
 * `additionalProperties`, and the merge markers `x-kubernetes-list-type` (`atomic` | `set` | `map`),
 * `x-kubernetes-list-map-keys` and `x-kubernetes-map-type` (`atomic` | `granular`). A custom
 * resource's schema is read as its CRD gives it; the built-in types have the sparse schemas below,
 * which name only what differs from the defaults (objects granular, lists atomic).
 *
 * @example
 * ```ts
 * const s: MergeSchema = { properties: { items: { type: 'array', 'x-kubernetes-list-type': 'set' } } };
 * ```
 */
export interface MergeSchema {
  readonly type?: string;
  readonly properties?: { readonly [name: string]: MergeSchema };
  readonly items?: MergeSchema;
  readonly additionalProperties?: MergeSchema | boolean;
  readonly default?: unknown;
  readonly 'x-kubernetes-list-type'?: string;
  readonly 'x-kubernetes-list-map-keys'?: ReadonlyArray<string>;
  readonly 'x-kubernetes-map-type'?: string;
}

/** How a list merges: replaced whole, a set of scalars, or a map of items keyed by fields. */
export type ListType =
  | { readonly type: 'atomic' }
  | { readonly type: 'set' }
  | { readonly type: 'map'; readonly keys: ReadonlyArray<string>; readonly defaults: { readonly [key: string]: unknown } };

/** The list type of a list's schema (atomic unless the schema says otherwise). */
export function listTypeOf(schema: MergeSchema | undefined): ListType {
  const t = schema?.['x-kubernetes-list-type'];
  if (t === 'set') return { type: 'set' };
  const keys = schema?.['x-kubernetes-list-map-keys'];
  if (t === 'map' && Array.isArray(keys) && keys.length > 0) {
    const defaults: { [key: string]: unknown } = {};
    for (const k of keys) {
      const d = schema?.items?.properties?.[k]?.default;
      if (d !== undefined) defaults[k] = d;
    }
    return { type: 'map', keys, defaults };
  }
  return { type: 'atomic' };
}

/** Whether a map or struct is owned whole (`x-kubernetes-map-type: atomic`). */
export const isAtomicMap = (schema: MergeSchema | undefined): boolean => schema?.['x-kubernetes-map-type'] === 'atomic';

/** The schema of field (or map key) `name` of an object. */
export function fieldSchema(schema: MergeSchema | undefined, name: string): MergeSchema | undefined {
  const p = schema?.properties?.[name];
  if (p) return p;
  const ap = schema?.additionalProperties;
  return typeof ap === 'object' ? ap : undefined;
}

// Built-in types: the list-map keys and sets of k8s.io/api's `+listType`/`+listMapKey` and
// `+patchStrategy=merge`/`+patchMergeKey` markers (a merge key without a list type is a map, merge
// without a key a set), and the `+structType=atomic`/`+mapType=atomic` structs and maps.

const mapList = (keys: string[], items: MergeSchema = {}, defaults: JsonObject = {}): MergeSchema => ({
  type: 'array',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': keys,
  items: {
    ...items,
    properties: { ...items.properties, ...Object.fromEntries(Object.entries(defaults).map(([k, d]) => [k, { default: d }])) },
  },
});
const setList: MergeSchema = { type: 'array', 'x-kubernetes-list-type': 'set' };
const atomic: MergeSchema = { type: 'object', 'x-kubernetes-map-type': 'atomic' };
const conditions = mapList(['type']);
const stringMap: MergeSchema = { type: 'object', additionalProperties: { type: 'string' } };

const objectMeta: MergeSchema = {
  properties: {
    labels: stringMap,
    annotations: stringMap,
    ownerReferences: mapList(['uid']),
    finalizers: setList,
  },
};

const container: MergeSchema = {
  properties: {
    ports: mapList(['containerPort', 'protocol'], {}, { protocol: 'TCP' }),
    env: mapList(['name']),
    volumeMounts: mapList(['mountPath']),
    volumeDevices: mapList(['devicePath']),
    resources: { properties: { limits: stringMap, requests: stringMap } },
  },
};

const podSpec: MergeSchema = {
  properties: {
    containers: mapList(['name'], container),
    initContainers: mapList(['name'], container),
    ephemeralContainers: mapList(['name'], container),
    volumes: mapList(['name']),
    imagePullSecrets: mapList(['name']),
    hostAliases: mapList(['ip']),
    topologySpreadConstraints: mapList(['topologyKey', 'whenUnsatisfiable']),
    resourceClaims: mapList(['name']),
    schedulingGates: mapList(['name']),
    nodeSelector: stringMap,
  },
};

const podTemplate: MergeSchema = { properties: { metadata: objectMeta, spec: podSpec } };

const workload = (spec: { [k: string]: MergeSchema } = {}): MergeSchema => ({
  properties: {
    spec: { properties: { selector: atomic, template: podTemplate, ...spec } },
    status: { properties: { conditions } },
  },
});

const BUILT_IN: { readonly [id: string]: MergeSchema } = {
  configmaps: { properties: { data: stringMap, binaryData: stringMap } },
  secrets: { properties: { data: stringMap, stringData: stringMap } },
  pods: {
    properties: {
      spec: podSpec,
      status: { properties: { conditions, podIPs: mapList(['ip']), hostIPs: mapList(['ip']) } },
    },
  },
  services: {
    properties: {
      spec: { properties: { ports: mapList(['port', 'protocol'], {}, { protocol: 'TCP' }), selector: atomic } },
      status: { properties: { conditions } },
    },
  },
  nodes: { properties: { spec: { properties: { podCIDRs: setList } }, status: { properties: { conditions } } } },
  namespaces: { properties: { status: { properties: { conditions } } } },
  persistentvolumeclaims: { properties: { spec: { properties: { selector: atomic } }, status: { properties: { conditions } } } },
  'deployments.apps': workload(),
  'replicasets.apps': workload(),
  'daemonsets.apps': workload(),
  'statefulsets.apps': workload(),
};


/**
 * The merge schema of a resource's objects: the built-in table, or the custom resource's CRD
 * schema (`crd` is the stored CustomResourceDefinition, when there is one), with ObjectMeta's
 * list types under `metadata` either way.
 *
 * @example
 * ```ts
 * listTypeOf(fieldSchema(fieldSchema(mergeSchemaOf(podType), 'spec'), 'containers')); // map by name
 * ```
 */
export function mergeSchemaOf(type: ResourceType, crd?: JsonObject): MergeSchema {
  if (type.builtIn) {
    // A built-in type's schema never changes: built once per type, not per write.
    let schema = builtInSchemas.get(type);
    if (!schema) builtInSchemas.set(type, (schema = schemaOf(type, crd)));
    return schema;
  }
  return schemaOf(type, crd);
}

const builtInSchemas = new WeakMap<ResourceType, MergeSchema>();

function schemaOf(type: ResourceType, crd: JsonObject | undefined): MergeSchema {
  const own = type.builtIn ? BUILT_IN[type.id] : crdSchema(type, crd);
  return { ...own, properties: { ...own?.properties, metadata: objectMeta } };
}

function crdSchema(type: ResourceType, crd: JsonObject | undefined): MergeSchema | undefined {
  const versions = (crd?.spec as JsonObject | undefined)?.versions;
  if (!Array.isArray(versions)) return undefined;
  const v = versions.find((x) => typeof x === 'object' && x !== null && (x as JsonObject).name === type.version) as JsonObject | undefined;
  const schema = (v?.schema as JsonObject | undefined)?.openAPIV3Schema;
  return typeof schema === 'object' && schema !== null ? (schema as MergeSchema) : undefined;
}
