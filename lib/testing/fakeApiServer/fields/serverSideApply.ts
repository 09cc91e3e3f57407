import { FieldSet } from './fieldSet.js';
import { compare, ListKeyError, merge, removeFields } from './fieldWalk.js';
import { appliedFields, conflictError, ownableFields, withoutManagedFields, type FieldConflict, type Manager, type TrackingScope, type Writer } from './managedFields.js';
import type { JsonObject, ResourceType } from '../resources.js';
import { badRequest, failure, StatusError } from '../status.js';

// Server-side apply (structured-merge-diff's Updater.Apply): merge the configuration into the
// live object, refuse (409) to change fields other managers own unless forced, give the applier
// exactly the fields it applied, and remove what it applied before, no longer applies, and
// nobody else owns.

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const jsonKind = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v);

/**
 * The checks a real server makes of an apply body before merging it: an object (400 `error
 * decoding patch`), of the endpoint's apiVersion and kind (400 `invalid object type`, the Go
 * GroupVersionKind printed), without `metadata.managedFields` (400).
 */
export function checkApplyBody(type: ResourceType, body: unknown): JsonObject {
  if (!isObject(body)) {
    throw badRequest(`error decoding patch: json: cannot unmarshal ${jsonKind(body)} into Go value of type map[string]interface {}`);
  }
  const apiVersion = typeof body.apiVersion === 'string' ? body.apiVersion : '';
  const kind = typeof body.kind === 'string' ? body.kind : '';
  if (apiVersion !== type.apiVersion || kind !== type.kind) {
    const slash = apiVersion.indexOf('/');
    const gv = slash >= 0 ? apiVersion : `/${apiVersion}`;
    throw badRequest(`invalid object type: ${gv}, Kind=${kind}`);
  }
  const meta = body.metadata;
  if (meta !== undefined && meta !== null && !isObject(meta)) throw badRequest(`error decoding patch: json: cannot unmarshal ${jsonKind(meta)} into Go struct field Object.metadata of type v1.ObjectMeta`);
  if (isObject(meta) && meta.managedFields !== undefined && meta.managedFields !== null) throw badRequest('metadata.managedFields must be nil');
  return body;
}

/**
 * The part of a configuration an apply through `subresource` may set: through `/status` only
 * `status` (with the object's identity); through the main resource of a type with a status
 * subresource everything but `status` (which the server drops silently).
 */
export function applyScope(config: JsonObject, subresource: string | undefined, statusSubresource: boolean): JsonObject {
  if (subresource === 'status') {
    const { apiVersion, kind, metadata, status } = config;
    const meta = isObject(metadata) ? metadata : {};
    return { apiVersion, kind, metadata: { ...(meta.name !== undefined ? { name: meta.name } : {}), ...(meta.namespace !== undefined ? { namespace: meta.namespace } : {}) }, ...(status !== undefined ? { status } : {}) };
  }
  if (!statusSubresource || config.status === undefined) return config;
  const { status: _, ...rest } = config;
  return rest;
}

/** What an apply decided: the object to store and its managers. */
export interface ApplyResult {
  readonly object: JsonObject;
  readonly managers: Manager[];
}

/**
 * Applies `config` (already checked and scoped) to `live` (undefined: the object is created) for
 * `writer`, given the live object's `managers`. Throws the 409 of {@link conflictError} unless
 * `force`, and a 500 (as kube, kubernetes#139253) for a keyed list item without its keys.
 */
export function applyConfiguration(live: JsonObject | undefined, managers: ReadonlyArray<Manager>, config: JsonObject, writer: Writer, force: boolean, scope: TrackingScope, describe: string): ApplyResult {
  let applied: FieldSet;
  try {
    applied = ownableFields(appliedFields(config, scope.schema), writer.subresource, scope.statusSubresource);
  } catch (e) {
    if (e instanceof ListKeyError) throw new StatusError(failure(500, '', `failed to create typed patch object (${describe}): ${e.message}`));
    throw e;
  }
  const base = withoutManagedFields(live) ?? {};
  const merged = merge(base, config, scope.schema) as JsonObject;
  const c = compare(base, merged, scope.schema);
  c.modified.addAll(c.added);
  const changed = ownableFields(c.modified, writer.subresource, scope.statusSubresource);
  const id = JSON.stringify([writer.manager, writer.subresource ?? '']);
  const isMine = (m: Manager) => m.operation === 'Apply' && JSON.stringify([m.manager, m.subresource ?? '']) === id;
  const mine = managers.find(isMine);
  const conflicts: FieldConflict[] = [];
  let others = managers.filter((m) => !isMine(m));
  others = others.map((m) => {
    const taken = m.set.intersection(changed);
    if (taken.isEmpty()) return m;
    for (const path of taken.paths()) conflicts.push({ manager: m, path });
    return { ...m, set: m.set.difference(taken) };
  });
  if (conflicts.length > 0 && !force) {
    conflicts.sort((a, b) => a.manager.manager.localeCompare(b.manager.manager));
    throw conflictError(conflicts);
  }
  const othersOwn = new FieldSet();
  for (const m of others) othersOwn.addAll(m.set);
  const dropped = (mine?.set ?? new FieldSet()).difference(applied);
  const object = removeFields(merged, dropped, othersOwn, scope.schema) as JsonObject;
  const removed = compare(base, object, scope.schema).removed;
  const next: Manager[] = others.map((m) => ({ ...m, set: m.set.difference(removed) }));
  const touched = object !== base && JSON.stringify(object) !== JSON.stringify(base);
  const time = touched || !(mine?.set ?? new FieldSet()).equals(applied) ? scope.now : mine?.time;
  next.push({ ...writer, ...(time ? { time } : {}), set: applied });
  return { object, managers: next };
}
