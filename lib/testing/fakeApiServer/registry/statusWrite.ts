import type { ResourceType } from '../resources.js';
import { sameJson } from './sameContent.js';
import { isEntryList, type ManagedFieldsEntry, type TrackedUpdate } from '../fields/managedFields.js';
import type { StoredObject } from '../storage/storedObject.js';

// A /status write replaces the stored object's status and the writer's managedFields entry, and
// nothing else. Stored objects keep their status last, managedFields right before resourceVersion
// (fieldManager.ts's setManagedFields), and know where both start; so the new JSON is the old one
// with new managedFields, a new resourceVersion and a new status tail: no parse or re-serialisation
// of the (often 4 KB) rest, which a status-heavy workload (kubelets, controllers) would otherwise
// pay on every write.

const MANAGED_FIELDS_KEY = '"managedFields":';
const RV_KEY = ',"resourceVersion":"';
const STATUS_KEY = ',"status":';

/**
 * The managedFields a /status write makes from the stored entries `live` (a valid entry list) and
 * the stored status `previous`: what the field manager's Update tracking gives for the whole
 * object, and whether the write changes any field.
 */
export type StatusEntries = (live: ReadonlyArray<ManagedFieldsEntry>, previous: unknown) => TrackedUpdate;

/**
 * The object a `/status` write of `status` makes from `old`, as a builder for the new revision,
 * with its managedFields from `entries`. Undefined when the fast path does not apply and the
 * caller must take the general one: no stored status, no status sent, the same status (a no-op,
 * which the general path decides), no managedFields stored right before resourceVersion, or no
 * entries left. Field selectors on `status.*` are recomputed, the others kept.
 *
 * @example
 * ```ts
 * const next = replaceStatus(podsType, old, { phase: 'Running' }, (live, prev) => entriesOf(live, prev));
 * if (next) storage.putBuilt(podsType, next);
 * ```
 */
export function replaceStatus(type: ResourceType, old: StoredObject, status: unknown, entries: StatusEntries): ((rv: number) => StoredObject) | undefined {
  if (old.statusIndex === undefined || status === undefined || status === null) return undefined;
  const text = JSON.stringify(status);
  if (text === undefined) return undefined;
  const json = old.json;
  const oldText = json.slice(old.statusIndex + STATUS_KEY.length, json.length - 1);
  if (oldText === text) return undefined;
  // Parsed, not kept from the write that stored it: in-process writers keep their objects.
  const previous: unknown = JSON.parse(oldText);
  // Only this module sets builtManagedFields, always to a valid entry list.
  const live = (old.builtManagedFields as { value: ReadonlyArray<ManagedFieldsEntry>; start: number } | undefined) ?? storedManagedFields(old);
  if (!live) return undefined;
  const { entries: list, fieldsChanged } = entries(live.value, previous);
  if (list.length === 0) return undefined;
  // The same status (in any key order: kube compares decoded objects) is a no-op. A write that
  // changes a field is not one; one that changes none may still reorder a list.
  if (!fieldsChanged && sameJson(previous, status)) return undefined;
  const head = json.slice(0, live.start);
  // Entries that came back as they were (a writer re-owning its fields within the same second)
  // keep their stored text.
  const entriesText = sameItems(list, live.value) ? json.slice(live.start, old.rvIndex - RV_KEY.length) : entriesJson(list);
  const middle = json.slice(old.rvIndex + String(old.rv).length, old.statusIndex);
  const fields = statusFieldSelectors(type, old.fields, status);
  const managedFields = { value: list, start: live.start };
  const rvIndex = head.length + entriesText.length + RV_KEY.length;
  return (rv) => {
    const rvText = String(rv);
    // Joined, not concatenated: one flat string now, while it is young, rather than a tree of
    // pieces that every send and the next write's slices would flatten again.
    const next = [head, entriesText, RV_KEY, rvText, middle, STATUS_KEY, text, '}'].join('');
    // The next /status write of this revision reads its managedFields from here, not the JSON.
    return { ...old, rv, json: next, rvIndex, statusIndex: rvIndex + rvText.length + middle.length, fields, builtManagedFields: managedFields };
  };
}

const sameItems = (a: ReadonlyArray<unknown>, b: ReadonlyArray<unknown>): boolean => a.length === b.length && a.every((e, i) => e === b[i]);

/** The object's field-selector values with those on `status.*` recomputed for `status`. */
function statusFieldSelectors(type: ResourceType, fields: StoredObject['fields'], status: unknown): StoredObject['fields'] {
  let getters = statusGetters.get(type);
  if (!getters) statusGetters.set(type, (getters = Object.entries(type.fieldSelectors).filter(([f]) => f.startsWith('status.'))));
  if (getters.length === 0) return fields;
  const view = { status };
  const next: { [k: string]: string } = { ...fields };
  for (const [f, get] of getters) {
    const v = get(view);
    if (v === undefined) delete next[f];
    else next[f] = v;
  }
  return next;
}

const statusGetters = new WeakMap<ResourceType, Array<[string, ResourceType['fieldSelectors'][string]]>>();

/**
 * `JSON.stringify(list)`, with each entry's text (and each FieldsV1 set's) kept by identity: a
 * status writer's entries are mostly the ones stored before, and an unchanged set is the same
 * object (fieldSet.ts's union), so a write serialises its own entry's time and little else.
 */
function entriesJson(list: ReadonlyArray<unknown>): string {
  let out = '[';
  for (let i = 0; i < list.length; i++) out += (i > 0 ? ',' : '') + entryJson(list[i]);
  return `${out}]`;
}

function entryJson(entry: unknown): string {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return JSON.stringify(entry) ?? 'null';
  let text = jsonTexts.get(entry);
  if (text !== undefined) return text;
  const e = entry as { readonly [k: string]: unknown };
  text = '{';
  for (const k of Object.keys(e)) {
    const v = e[k];
    const value = k === 'fieldsV1' && typeof v === 'object' && v !== null ? fieldsJson(v) : JSON.stringify(v);
    if (value === undefined) continue;
    text += `${text.length > 1 ? ',' : ''}${JSON.stringify(k)}:${value}`;
  }
  text += '}';
  jsonTexts.set(entry, text);
  return text;
}

function fieldsJson(fields: object): string {
  let text = jsonTexts.get(fields);
  if (text === undefined) jsonTexts.set(fields, (text = JSON.stringify(fields)));
  return text;
}

// Entries and FieldsV1 sets are never changed once made (a write makes new ones).
const jsonTexts = new WeakMap<object, string>();

/**
 * The stored `metadata.managedFields` (parsed) and where its value starts, when it is the key
 * right before resourceVersion, itself the last key of metadata; else undefined.
 */
function storedManagedFields(old: StoredObject): { value: ReadonlyArray<ManagedFieldsEntry>; start: number } | undefined {
  const json = old.json;
  const rvKey = old.rvIndex - RV_KEY.length;
  const rvEnd = old.rvIndex + String(old.rv).length;
  if (rvKey < 0 || json.slice(rvKey, old.rvIndex) !== RV_KEY || json.slice(rvEnd, rvEnd + 2) !== '"}') return undefined;
  // No key inside managedFields is `managedFields` with a list value (FieldsV1 keys are `f:...`),
  // and a slice that parses as one list has its brackets matched: the key is metadata's own.
  const key = json.lastIndexOf(`${MANAGED_FIELDS_KEY}[`, rvKey);
  if (key < 1 || (json[key - 1] !== ',' && json[key - 1] !== '{')) return undefined;
  const start = key + MANAGED_FIELDS_KEY.length;
  let value: unknown;
  try {
    value = JSON.parse(json.slice(start, rvKey));
  } catch {
    return undefined;
  }
  // Entries this server cannot keep go the general path, which starts them afresh.
  return isEntryList(value) ? { value, start } : undefined;
}
