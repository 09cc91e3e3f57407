import type { JsonObject, ResourceType } from '../resources.js';
import type { Selectable } from './selectors.js';

/** The metadata fields a write keeps from the stored object (kept here so writes need not re-parse it). */
export interface SystemMeta {
  readonly uid?: string;
  readonly creationTimestamp?: string;
  readonly generation?: number;
  readonly deletionTimestamp?: string;
  readonly deletionGracePeriodSeconds?: number;
}

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
  /** Where the resourceVersion's digits start in `json` (for no-op detection without re-serialising). */
  readonly rvIndex: number;
  readonly system: SystemMeta;
  readonly hasFinalizers: boolean;
  readonly deleting: boolean;
  /** Where `,"status":` starts in `json` (status is serialised last), when the object has a status. */
  readonly statusIndex: number | undefined;
  /** The owners named in `metadata.ownerReferences` (for the garbage collector), if any. */
  readonly owners: ReadonlyArray<OwnerLink> | undefined;
  /**
   * The managedFields (parsed) and where they start in `json`, when a `/status` write built this
   * revision (statusWrite.ts): the next one need not parse them again. Never changed after.
   */
  readonly builtManagedFields?: { readonly value: ReadonlyArray<unknown>; readonly start: number };
}

/** One `metadata.ownerReferences` entry, as the garbage collector follows it. */
export interface OwnerLink {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly blockOwnerDeletion: boolean;
}

function ownerLinks(refs: unknown): ReadonlyArray<OwnerLink> | undefined {
  if (!Array.isArray(refs) || refs.length === 0) return undefined;
  return refs.map((r: { apiVersion?: unknown; kind?: unknown; name?: unknown; uid?: unknown; blockOwnerDeletion?: unknown }) => ({
    apiVersion: String(r?.apiVersion ?? ''),
    kind: String(r?.kind ?? ''),
    name: String(r?.name ?? ''),
    uid: String(r?.uid ?? ''),
    blockOwnerDeletion: r?.blockOwnerDeletion === true,
  }));
}

/** An object serialised once with a placeholder resourceVersion, split around it. */
export interface Serialized {
  readonly obj: JsonObject;
  readonly before: string;
  readonly after: string;
  /** Where `,"status":` starts in `after`, when the object has a status. */
  readonly statusAt: number | undefined;
}

// A placeholder no user data contains in practice; JSON.stringify escapes the NUL, so the
// serialised form is unique to this value.
const SENTINEL = '\u0000rxkube-resource-version\u0000';
const SENTINEL_JSON = JSON.stringify(SENTINEL);

/** Serialises `obj` once, with `metadata.resourceVersion` left to be filled in. */
export function serialize(obj: JsonObject): Serialized {
  (obj.metadata as JsonObject).resourceVersion = SENTINEL;
  // The status goes last (as kube's types declare it), and where it starts is kept, so that a
  // /status write can replace it without parsing the rest (statusWrite.ts).
  let json: string;
  let statusAt = -1;
  const tail = obj.status === undefined ? undefined : JSON.stringify(obj.status);
  if (tail !== undefined) {
    const { status: _status, ...rest } = obj;
    const head = JSON.stringify(rest);
    statusAt = head.length - 1;
    json = `${head.slice(0, -1)},"status":${tail}}`;
  } else json = JSON.stringify(obj);
  const i = json.indexOf(SENTINEL_JSON);
  const afterStart = i + SENTINEL_JSON.length - 1;
  return { obj, before: json.slice(0, i + 1), after: json.slice(afterStart), statusAt: statusAt >= 0 ? statusAt - afterStart : undefined };
}

/** Whether `s`, at `old`'s resourceVersion, is byte-for-byte `old` (a no-op write). */
export function sameAs(s: Serialized, old: StoredObject): boolean {
  const rvText = String(old.rv);
  return (
    old.json.length === s.before.length + rvText.length + s.after.length &&
    old.rvIndex === s.before.length &&
    old.json.startsWith(s.before) &&
    old.json.endsWith(s.after)
  );
}

/** The storage key of an object. */
export const objectKey = (namespace: string, name: string): string => (namespace ? `${namespace}/${name}` : name);

/** Builds the StoredObject of `s` at revision `rv` (and sets `rv` in the object). */
export function storedObject(type: ResourceType, s: Serialized, rv: number): StoredObject {
  const obj = s.obj;
  const meta = obj.metadata as {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    labels?: { [k: string]: string };
    finalizers?: string[];
    ownerReferences?: unknown;
  } & SystemMeta;
  meta.resourceVersion = String(rv);
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
    json: s.before + meta.resourceVersion + s.after,
    rvIndex: s.before.length,
    statusIndex: s.statusAt === undefined ? undefined : s.before.length + meta.resourceVersion.length + s.statusAt,
    system: {
      uid: meta.uid,
      creationTimestamp: meta.creationTimestamp,
      generation: meta.generation,
      deletionTimestamp: meta.deletionTimestamp,
      deletionGracePeriodSeconds: meta.deletionGracePeriodSeconds,
    },
    labels: meta.labels ? { ...meta.labels } : undefined,
    fields,
    hasFinalizers: (meta.finalizers?.length ?? 0) > 0,
    deleting: meta.deletionTimestamp !== undefined,
    owners: ownerLinks(meta.ownerReferences),
    // Present (if undefined) on every revision, so that all have one shape (statusWrite.ts sets it).
    builtManagedFields: undefined,
  };
}

/** A fresh mutable copy of the stored object. */
export const parseStored = (s: StoredObject): JsonObject => JSON.parse(s.json) as JsonObject;
