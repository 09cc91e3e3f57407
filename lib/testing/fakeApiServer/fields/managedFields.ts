import { displayPath, FieldSet, fieldsV1Difference, fieldsV1Intersects, fieldsV1Union, type FieldPath } from './fieldSet.js';
import { compare, createdFieldsV1, insertFields } from './fieldWalk.js';
import type { MergeSchema } from './listTypes.js';
import type { JsonObject } from '../resources.js';
import { StatusError, failure } from '../status.js';

// metadata.managedFields, as apimachinery's managedfields package keeps them: one entry per
// manager, operation (Apply | Update), subresource (and apiVersion, for Update), holding the
// FieldsV1 set of the fields that manager owns.

/**
 * One `metadata.managedFields` entry (meta/v1 `ManagedFieldsEntry`).
 *
 * @example
 * ```ts
 * const e: ManagedFieldsEntry = { manager: 'kubectl', operation: 'Apply', apiVersion: 'v1',
 *   time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } };
 * ```
 */
export interface ManagedFieldsEntry {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly time?: string;
  readonly fieldsType: 'FieldsV1';
  readonly fieldsV1: JsonObject;
  readonly subresource?: string;
}

/** A decoded entry: its field set instead of FieldsV1. */
export interface Manager {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly time?: string;
  readonly subresource?: string;
  readonly set: FieldSet;
  /** The FieldsV1 it was decoded from, reused by encoding while `set` is that decoded set. */
  readonly decoded?: { readonly set: FieldSet; readonly fieldsV1: JsonObject };
}

/** Who writes: the manager, the operation, the endpoint's apiVersion and subresource. */
export interface Writer {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly subresource?: string;
}

/** The identity of an entry (`BuildManagerIdentifier`): the time is not part of it. */
const identity = (m: Writer): string => {
  const apiVersion = m.operation === 'Update' ? m.apiVersion : '';
  // Length-prefixed, so no two identities run together (operation is Apply or Update).
  return `${m.manager.length}:${m.manager}${m.operation}${apiVersion.length}:${apiVersion}${m.subresource ?? ''}`;
};

/**
 * How a conflict names a manager (apimachinery's `printManager`): `"m"` for an Apply entry,
 * `"m" using v1` for an Update one, with `with subresource "status"` after the name for a subresource.
 */
export function describeManager(m: Writer): string {
  let s = JSON.stringify(m.manager);
  if (m.subresource) s += ` with subresource ${JSON.stringify(m.subresource)}`;
  return m.operation === 'Update' ? `${s} using ${m.apiVersion}` : s;
}

/** Decodes `metadata.managedFields`; undefined when it is not a valid list of entries. */
export function decodeManagedFields(value: unknown): Manager[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: Manager[] = [];
  for (const e of value as ReadonlyArray<Partial<ManagedFieldsEntry>>) {
    if (typeof e !== 'object' || e === null) return undefined;
    if (e.operation !== 'Apply' && e.operation !== 'Update') return undefined;
    if (e.fieldsType !== undefined && e.fieldsType !== 'FieldsV1') return undefined;
    const set = e.fieldsV1 === undefined ? new FieldSet() : FieldSet.fromFieldsV1(e.fieldsV1);
    if (!set) return undefined;
    out.push({
      manager: typeof e.manager === 'string' ? e.manager : '',
      operation: e.operation,
      apiVersion: typeof e.apiVersion === 'string' ? e.apiVersion : '',
      ...(typeof e.time === 'string' ? { time: e.time } : {}),
      ...(typeof e.subresource === 'string' && e.subresource ? { subresource: e.subresource } : {}),
      set,
      ...(e.fieldsV1 !== undefined ? { decoded: { set, fieldsV1: e.fieldsV1 } } : {}),
    });
  }
  return out;
}

const MAX_UPDATE_ENTRIES = 10;

/**
 * Encodes managers as `metadata.managedFields`: empty sets dropped, more than ten Update entries
 * folded (oldest first) into `ancient-changes` (`capmanagers.go`), sorted by operation (Apply
 * first), time, manager, apiVersion, subresource (`sortEncodedManagedFields`).
 */
export function encodeManagedFields(managers: ReadonlyArray<Manager>): ManagedFieldsEntry[] {
  return finishEntries(
    managers
      .filter((m) => !m.set.isEmpty())
      .map((m) => ({
        manager: m.manager,
        operation: m.operation,
        apiVersion: m.apiVersion,
        ...(m.time ? { time: m.time } : {}),
        fieldsType: 'FieldsV1',
        fieldsV1: m.decoded?.set === m.set ? m.decoded.fieldsV1 : m.set.toFieldsV1(),
        ...(m.subresource ? { subresource: m.subresource } : {}),
      })),
  );
}

/** Entries capped (ten Update entries at most, the oldest folded into `ancient-changes`) and sorted. */
function finishEntries(entries: ManagedFieldsEntry[], writer?: ManagedFieldsEntry): ManagedFieldsEntry[] {
  let list = entries;
  let updateCount = 0;
  for (const m of list) if (m.operation === 'Update') updateCount++;
  if (updateCount > MAX_UPDATE_ENTRIES) {
    // The writer's own entry is the newest: never folded (times tie within a second).
    const updates = list.filter((m) => m.operation === 'Update' && m !== writer).sort((a, b) => byString(a.time ?? '', b.time ?? ''));
    const old = updates.slice(0, updateCount - MAX_UPDATE_ENTRIES + 1);
    const set = new FieldSet();
    for (const m of old) set.addAll(FieldSet.fromFieldsV1(m.fieldsV1) ?? new FieldSet());
    const last = old[old.length - 1];
    list = [
      ...list.filter((m) => !old.includes(m)),
      { manager: 'ancient-changes', operation: 'Update', apiVersion: last.apiVersion, ...(last.time ? { time: last.time } : {}), fieldsType: 'FieldsV1', fieldsV1: set.toFieldsV1() },
    ];
  }
  return list.sort(
    (a, b) =>
      byString(a.operation, b.operation) ||
      byString(a.time ?? '', b.time ?? '') ||
      byString(a.manager, b.manager) ||
      byString(a.apiVersion, b.apiVersion) ||
      byString(a.subresource ?? '', b.subresource ?? ''),
  );
}

/** Go's string order (by code unit), as kube sorts entries: not the locale's. */
const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const UNTRACKED_META = ['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'];

/**
 * What a manager can own at all (`stripmeta.go` and the strategies' reset fields): never apiVersion,
 * kind or the metadata the server keeps; not `status` through the main resource of a type with a
 * status subresource; only `status` through `/status`.
 */
export function ownableFields(set: FieldSet, subresource: string | undefined, statusSubresource: boolean): FieldSet {
  const out = set; // callers pass sets of their own: changed in place
  out.member = false;
  out.drop(['f:apiVersion']);
  out.drop(['f:kind']);
  const meta = out.children.get('f:metadata');
  if (meta) {
    meta.member = false;
    for (const f of UNTRACKED_META) meta.children.delete(`f:${f}`);
    if (meta.isEmpty()) out.children.delete('f:metadata');
  }
  if (subresource === 'status') {
    for (const pe of [...out.children.keys()]) if (pe !== 'f:status') out.children.delete(pe);
  } else if (statusSubresource) out.drop(['f:status']);
  return out;
}

/** An object without `metadata.managedFields` (what the walks compare). */
export function withoutManagedFields(obj: JsonObject | undefined): JsonObject | undefined {
  const meta = obj?.metadata as JsonObject | undefined;
  if (!obj || !meta || meta.managedFields === undefined) return obj;
  const { managedFields: _, ...rest } = meta;
  return { ...obj, metadata: rest };
}

/** What a write's field tracking knows of the resource. */
export interface TrackingScope {
  readonly schema: MergeSchema;
  readonly statusSubresource: boolean;
  /** RFC 3339, whole seconds. */
  readonly now: string;
}

/** Whether `value` is a list of entries this server can keep (each an Apply or Update with FieldsV1). */
export function isEntryList(value: unknown): value is ManagedFieldsEntry[] {
  return (
    Array.isArray(value) &&
    value.every(
      (e: Partial<ManagedFieldsEntry>) =>
        typeof e === 'object' && e !== null && (e.operation === 'Apply' || e.operation === 'Update') && typeof e.fieldsV1 === 'object' && e.fieldsV1 !== null && !Array.isArray(e.fieldsV1),
    )
  );
}

/**
 * The entries after an Update (POST, PUT, or a non-apply PATCH) from `live` to `next`
 * (structured-merge-diff's `Updater.Update`): the writer takes every field it added or changed,
 * which leave the other managers; removed fields leave everyone. Its entry's time is now. Never a
 * conflict. Works on the FieldsV1 JSON: entries the write does not touch are kept as they are.
 */
export function trackUpdate(entries: ReadonlyArray<ManagedFieldsEntry>, live: JsonObject | undefined, next: JsonObject, writer: Writer, scope: TrackingScope): TrackedUpdate {
  if (live === undefined && entries.length === 0) return { entries: createEntry(next, writer, scope), fieldsChanged: true };
  const update = updatedFields(live, next, writer, scope);
  // Removed fields count only where a manager could own them (not resourceVersion).
  const fieldsChanged = !update.changed.isEmpty() || !ownableFields(update.removed.copy(), writer.subresource, scope.statusSubresource).isEmpty();
  return { entries: entriesAfterUpdate(entries, update, writer, scope), fieldsChanged };
}

/**
 * The entries after an Update, and whether it changes a field a manager can own: if so it is no
 * no-op, and its caller need not compare the objects again (if not, it may still be a change, a
 * list reordered say).
 */
export interface TrackedUpdate {
  readonly entries: ManagedFieldsEntry[];
  readonly fieldsChanged: boolean;
}

/** The fields an Update changes that its writer may own, and the fields it removes. */
interface UpdatedFields {
  readonly changed: FieldSet;
  readonly removed: FieldSet;
}

/**
 * What an Update from `live` to `next` changes, as field sets. Through the main resource of a
 * type with a status subresource, status is not the writer's to own (kube's reset fields): it is
 * left out of the comparison.
 */
function updatedFields(live: JsonObject | undefined, next: JsonObject, writer: Writer, scope: TrackingScope): UpdatedFields {
  const scoped = (o: JsonObject | undefined) => {
    const s = withoutManagedFields(o);
    if (!s || writer.subresource || !scope.statusSubresource || s.status === undefined) return s;
    const { status: _, ...rest } = s;
    return rest;
  };
  const c = compare(scoped(live), scoped(next), scope.schema);
  c.modified.addAll(c.added);
  return { changed: ownableFields(c.modified, writer.subresource, scope.statusSubresource), removed: c.removed };
}

/** Whether an Update changes no field (its entries stay as they are). */
const changesNothing = (u: UpdatedFields): boolean => u.changed.isEmpty() && u.removed.isEmpty();

/** The entries after an Update that changes `update`'s fields (see {@link trackUpdate}). */
function entriesAfterUpdate(entries: ReadonlyArray<ManagedFieldsEntry>, update: UpdatedFields, writer: Writer, scope: TrackingScope): ManagedFieldsEntry[] {
  const { changed, removed } = update;
  if (changesNothing(update)) return [...entries];
  const id = identity(writer);
  const out: ManagedFieldsEntry[] = [];
  let mine: ManagedFieldsEntry | undefined;
  for (const e of entries) {
    if (identity(e) === id) {
      mine = e;
      continue;
    }
    if (!fieldsV1Intersects(e.fieldsV1, changed) && !fieldsV1Intersects(e.fieldsV1, removed)) {
      out.push(e);
      continue;
    }
    const left = fieldsV1Difference(fieldsV1Difference(e.fieldsV1, changed) ?? {}, removed);
    if (left && Object.keys(left).length > 0) out.push({ ...e, fieldsV1: left });
  }
  const set = fieldsV1Difference(fieldsV1Union(mine?.fieldsV1, changed), removed);
  let entry: ManagedFieldsEntry | undefined;
  if (set && set === mine?.fieldsV1 && mine.time === scope.now) {
    // The writer owned these fields already, within the same second: its entry as it was (so a
    // status writer's stored entries, and their serialised text, stay the same objects).
    entry = mine;
    out.push(entry);
  } else if (set && Object.keys(set).length > 0) {
    entry = { manager: writer.manager, operation: 'Update', apiVersion: writer.apiVersion, time: scope.now, fieldsType: 'FieldsV1', fieldsV1: set, ...(writer.subresource ? { subresource: writer.subresource } : {}) };
    out.push(entry);
  }
  return finishEntries(out, entry);
}

/** A create with no managedFields sent: the writer owns every field it set (one walk, no sets). */
function createEntry(next: JsonObject, writer: Writer, scope: TrackingScope): ManagedFieldsEntry[] {
  const { managedFields: _, ...meta } = (next.metadata ?? {}) as JsonObject;
  const fields = createdFieldsV1({ ...next, metadata: meta }, scope.schema);
  delete fields['f:apiVersion'];
  delete fields['f:kind'];
  const m = fields['f:metadata'] as JsonObject | undefined;
  if (m) {
    for (const f of UNTRACKED_META) delete m[`f:${f}`];
    delete m['.'];
    if (Object.keys(m).length === 0) delete fields['f:metadata'];
  }
  if (writer.subresource === 'status') {
    for (const k of Object.keys(fields)) if (k !== 'f:status') delete fields[k];
  } else if (scope.statusSubresource) delete fields['f:status'];
  if (Object.keys(fields).length === 0) return [];
  return [{ manager: writer.manager, operation: 'Update', apiVersion: writer.apiVersion, time: scope.now, fieldsType: 'FieldsV1', fieldsV1: fields, ...(writer.subresource ? { subresource: writer.subresource } : {}) }];
}

/** One field another manager owns and an apply would change. */
export interface FieldConflict {
  readonly manager: Writer;
  readonly path: FieldPath;
}

/**
 * The 409 of an apply that would change fields other managers own (apimachinery's
 * `NewConflictError`): one `FieldManagerConflict` cause per field; the message lists them,
 * grouped by manager (sorted) when there are several.
 */
export function conflictError(conflicts: ReadonlyArray<FieldConflict>): StatusError {
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${describeManager(c.manager)}`, field: displayPath(c.path) }));
  let message: string;
  if (conflicts.length === 1) message = `Apply failed with 1 conflict: ${causes[0].message}: ${causes[0].field}`;
  else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) {
      const name = describeManager(c.manager);
      byManager.set(name, [...(byManager.get(name) ?? []), displayPath(c.path)]);
    }
    const lines: string[] = [];
    for (const name of [...byManager.keys()].sort()) lines.push(`conflicts with ${name}:`, ...byManager.get(name)!.map((p) => `- ${p}`));
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(failure(409, 'Conflict', message, { causes }));
}

/** The fields an apply configuration sets (`ToFieldSet`); a keyed list item without its keys throws. */
export function appliedFields(config: JsonObject, schema: MergeSchema): FieldSet {
  const set = new FieldSet();
  insertFields(set, config, schema, [], false, true);
  return set;
}
