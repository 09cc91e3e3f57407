import { mergeSchemaOf } from './listTypes.js';
import { decodeManagedFields, encodeManagedFields, isEntryList, trackUpdate, type ManagedFieldsEntry, type Manager, type TrackedUpdate, type TrackingScope, type Writer } from './managedFields.js';
import type { JsonObject, ResourceType } from '../resources.js';
import { applyConfiguration, applyScope, checkApplyBody } from './serverSideApply.js';
import type { StoredObject } from '../storage/storedObject.js';
import { invalid, type FieldError } from '../status.js';

/**
 * The manager of writes made in process (`api.create`, `api.update`, ..., and the server's own
 * namespaces): what a request's user agent would name over HTTP.
 */
export const DATA_PLANE_MANAGER = 'rxkube-testing';

/**
 * How a write is tracked: an Update by `manager`, or `'preset'`: the object's managedFields are
 * already what they must be (an apply computed them, or a seed object carries them as stored).
 */
export type FieldOwner = { readonly manager: string } | 'preset';

/**
 * Sets the entries (none: no field), always last but for resourceVersion, so that a write that
 * changes nothing serialises byte for byte as the stored object (the registry's no-op test).
 */
function setManagedFields(meta: JsonObject, entries: ReadonlyArray<unknown>): void {
  const rv = meta.resourceVersion;
  delete meta.managedFields;
  delete meta.resourceVersion;
  if (entries.length > 0) meta.managedFields = entries;
  if (rv !== undefined) meta.resourceVersion = rv;
}

function wholeSecondTime(e: ManagedFieldsEntry): ManagedFieldsEntry {
  if (typeof e.time !== 'string' || !/\.\d+Z$/.test(e.time)) return e;
  const ms = Date.parse(e.time);
  return Number.isNaN(ms) ? e : { ...e, time: new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z') };
}

const isReset = (v: unknown): boolean =>
  Array.isArray(v) && (v.length === 0 || (v.length === 1 && typeof v[0] === 'object' && v[0] !== null && Object.keys(v[0] as object).length === 0));

/**
 * What the field manager reads from the server: the stored CRD of a custom resource (its merge
 * schema), whether a type has a status subresource, and the time of a write.
 *
 * @example
 * ```ts
 * const source: FieldManagerSource = { crdOf: () => undefined, hasStatusSubresource: () => false, timestamp: () => '2026-01-01T00:00:00Z' };
 * ```
 */
export interface FieldManagerSource {
  crdOf(type: ResourceType): StoredObject | undefined;
  hasStatusSubresource(type: ResourceType): boolean;
  timestamp(): string;
}

/**
 * The field manager of the fake API server (apiserver's `FieldManager`): keeps
 * `metadata.managedFields` on every write and runs server-side apply, with each resource's merge
 * schema (a custom resource's from its stored CRD, looked up per write).
 */
export class FieldManager {
  private readonly schemas = new WeakMap<StoredObject, TrackingScope['schema']>();

  constructor(private readonly source: FieldManagerSource) {}

  /** The schema, status-subresource flag and time a write of `type` is tracked with. */
  scope(type: ResourceType): TrackingScope {
    const stored = this.source.crdOf(type);
    const statusSubresource = this.source.hasStatusSubresource(type);
    if (!stored) return { schema: mergeSchemaOf(type), statusSubresource, now: this.source.timestamp() };
    let schema = this.schemas.get(stored);
    if (!schema) {
      schema = mergeSchemaOf(type, JSON.parse(stored.json) as JsonObject);
      this.schemas.set(stored, schema);
    }
    return { schema, statusSubresource, now: this.source.timestamp() };
  }

  /**
   * Tracks a write of `next` (over `live`, undefined on create): an Update by `owner.manager`, or,
   * when preset (by an apply, or a seed), managedFields moved to their place.
   */
  record(type: ResourceType, live: JsonObject | undefined, next: JsonObject, owner: FieldOwner, subresource?: string): boolean | undefined {
    const meta = next.metadata as JsonObject;
    if (owner !== 'preset') return this.recordUpdate(type, live, next, owner.manager, subresource);
    setManagedFields(meta, (meta.managedFields as unknown[] | undefined) ?? []);
    return undefined;
  }

  /**
   * Sets `next.metadata.managedFields` for an Update from `live` (undefined on create): the
   * entries the client sent if valid (not through a subresource), `[]` or `[{}]` to reset them,
   * else the live ones; then the writer's changes. True when the write changes a field a manager
   * can own (so it is no no-op: the caller need not compare the objects again); false when it
   * may be one; undefined when not tracked (the managedFields reset).
   */
  recordUpdate(type: ResourceType, live: JsonObject | undefined, next: JsonObject, manager: string, subresource?: string): boolean | undefined {
    const meta = next.metadata as JsonObject;
    const sent = meta.managedFields;
    if (!subresource && isReset(sent)) {
      delete meta.managedFields;
      return undefined;
    }
    const liveEntries = (live?.metadata as JsonObject | undefined)?.managedFields;
    // Sent entries are decoded as kube decodes them: a time is whole seconds (client-node sends
    // `...:00.000Z`), so entries sent back as read are the stored ones and a no-op stays one.
    const base = !subresource && isEntryList(sent) ? sent.map(wholeSecondTime) : isEntryList(liveEntries) ? liveEntries : [];
    const writer: Writer = { manager, operation: 'Update', apiVersion: type.apiVersion, ...(subresource ? { subresource } : {}) };
    const { entries, fieldsChanged } = trackUpdate(base, live, next, writer, this.scope(type));
    setManagedFields(meta, entries);
    return fieldsChanged;
  }

  /**
   * The managedFields after an Update through `/status` by `manager` that changes the status from
   * `previous` to `status` (nothing else changes): what `recordUpdate` gives for the whole objects,
   * from the stored entries `live` (a valid entry list), computed on the status alone
   * (statusWrite.ts's fast path); and whether the write changes any field at all (if not, it may
   * still reorder a list).
   */
  statusUpdateEntries(type: ResourceType, live: ReadonlyArray<ManagedFieldsEntry>, previous: unknown, status: unknown, manager: string): TrackedUpdate {
    const writer: Writer = { manager, operation: 'Update', apiVersion: type.apiVersion, subresource: 'status' };
    // Only the status differs between the stored object and the written one (the rest is kept,
    // resourceVersion and managedFields are never owned): the statuses alone are compared.
    const before: JsonObject = { status: previous as JsonObject };
    const after: JsonObject = { status: status as JsonObject };
    return trackUpdate(live, before, after, writer, this.scope(type));
  }

  /**
   * Server-side apply of `body` to `live` (undefined when the object is missing) by `manager`:
   * the object to write, with its managedFields set. Throws the real server's 400s for a bad
   * body and its 409 for a conflict (unless `force`).
   */
  apply(type: ResourceType, live: JsonObject | undefined, body: unknown, manager: string, force: boolean, subresource: string | undefined, describe: string): JsonObject {
    const scope = this.scope(type);
    const config = applyScope(checkApplyBody(type, body), subresource, scope.statusSubresource);
    const managers: Manager[] = decodeManagedFields((live?.metadata as JsonObject | undefined)?.managedFields) ?? [];
    const writer: Writer = { manager, operation: 'Apply', apiVersion: type.apiVersion, ...(subresource ? { subresource } : {}) };
    const { object, managers: next } = applyConfiguration(live, managers, config, writer, force, scope, describe);
    const meta = ((object.metadata as JsonObject | undefined) ?? {}) as JsonObject;
    object.metadata = meta;
    setManagedFields(meta, encodeManagedFields(next));
    return object;
  }
}

const MAX_MANAGER_BYTES = 128;

/** The user agent before its first `/`, printable characters only, at most 128 bytes (`prefixFromUserAgent`). */
function prefixFromUserAgent(userAgent: string): string {
  let out = '';
  for (const ch of userAgent.split('/')[0]) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) continue;
    if (Buffer.byteLength(out + ch) > MAX_MANAGER_BYTES) break;
    out += ch;
  }
  return out;
}

/**
 * The manager of a write request and the checks of `PatchOptions` (`ValidatePatchOptions`): an
 * apply needs `fieldManager` (422), a manager is at most 128 bytes, `force` is for apply only.
 * Other writes without `fieldManager` are by their user agent's prefix (`unknown` if none).
 *
 * @example
 * ```ts
 * writeManager(new URLSearchParams('fieldManager=me'), 'kubectl/v1.35', 'apply'); // 'me'
 * writeManager(new URLSearchParams(), 'kubectl/v1.35 (linux/amd64)'); // 'kubectl'
 * ```
 */
export function writeManager(query: URLSearchParams, userAgent: string | undefined, patchType?: string, optionsKind = 'UpdateOptions'): string {
  const given = query.get('fieldManager') ?? '';
  const problems: FieldError[] = [];
  if (patchType === 'apply' && given === '') problems.push({ field: 'fieldManager', type: 'FieldValueRequired', body: 'Required value: is required for apply patch' });
  if (Buffer.byteLength(given) > MAX_MANAGER_BYTES) problems.push({ field: 'fieldManager', type: 'FieldValueTooLong', body: `Too long: may not be more than ${MAX_MANAGER_BYTES} bytes` });
  if (patchType !== undefined && patchType !== 'apply' && query.has('force')) problems.push({ field: 'force', type: 'FieldValueForbidden', body: 'Forbidden: may not be specified for non-apply patch' });
  if (problems.length > 0) throw invalid(patchType === undefined ? optionsKind : 'PatchOptions', 'meta.k8s.io', '', problems);
  return given || prefixFromUserAgent(userAgent ?? '') || 'unknown';
}
