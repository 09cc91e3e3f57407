import type { JsonObject, ResourceType } from './resources.js';
import type { Selectable } from './selectors.js';

/**
 * One version of one object, immutable: its JSON is serialised once, at write time, and shared by
 * every list and watch that sends it; labels and selectable fields are extracted for selectors.
 */
export interface StoredObject extends Selectable {
  /** `namespace/name`, or `name` for cluster-scoped types: the list order (etcd key order). */
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly rv: number;
  readonly json: string;
  readonly hasFinalizers: boolean;
  readonly deleting: boolean;
}

/** The storage key of an object. */
export const objectKey = (namespace: string, name: string): string => (namespace ? `${namespace}/${name}` : name);

/** Serialises `obj` (whose `metadata.resourceVersion` is already set to `rv`) into a StoredObject. */
export function storedObject(type: ResourceType, obj: JsonObject, rv: number): StoredObject {
  const meta = (obj.metadata ?? {}) as {
    name?: string;
    namespace?: string;
    uid?: string;
    labels?: { [k: string]: string };
    finalizers?: string[];
    deletionTimestamp?: string;
  };
  const name = meta.name ?? '';
  const namespace = type.namespaced ? (meta.namespace ?? '') : '';
  const fields: { [k: string]: string } = { 'metadata.name': name, 'metadata.namespace': namespace };
  for (const [f, get] of Object.entries(type.fieldSelectors)) {
    const v = get(obj);
    if (v !== undefined) fields[f] = v;
  }
  return {
    key: objectKey(namespace, name),
    namespace,
    name,
    uid: meta.uid ?? '',
    rv,
    json: JSON.stringify(obj),
    labels: meta.labels ? { ...meta.labels } : undefined,
    fields,
    hasFinalizers: (meta.finalizers?.length ?? 0) > 0,
    deleting: meta.deletionTimestamp !== undefined,
  };
}

/** A fresh mutable copy of the stored object. */
export const parseStored = (s: StoredObject): JsonObject => JSON.parse(s.json) as JsonObject;
