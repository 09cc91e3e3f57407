import type { ResourceType } from './resources.js';
import { sameJson } from './sameContent.js';
import type { StoredObject } from './storedObject.js';

// A /status write replaces the stored object's status and the writer's managedFields entry, and
// nothing else. Stored objects keep their status last, managedFields right before resourceVersion
// (fieldManager.ts's setManagedFields), and know where both start; so the new JSON is the old one
// with new managedFields, a new resourceVersion and a new status tail: no parse or re-serialisation
// of the (often 4 KB) rest, which a status-heavy workload (kubelets, controllers) would otherwise
// pay on every write.

const MANAGED_FIELDS_KEY = '"managedFields":';
const RV_KEY = ',"resourceVersion":"';

/**
 * The managedFields a /status write makes from the stored entries `live` (parsed as stored) and
 * the stored status `previous`: what the field manager's Update tracking gives for the whole object.
 */
export type StatusEntries = (live: unknown, previous: unknown) => ReadonlyArray<unknown>;

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
  const oldTail = json.slice(old.statusIndex);
  const newTail = `,"status":${text}}`;
  if (oldTail === newTail) return undefined;
  const previous: unknown = JSON.parse(oldTail.slice(10, -1));
  // The same status in another key order is no change either (kube compares decoded objects).
  if (sameJson(previous, status)) return undefined;
  const live = storedManagedFields(old);
  if (!live) return undefined;
  const list = entries(live.value, previous);
  if (list.length === 0) return undefined;
  const oldRv = String(old.rv);
  const before = `${json.slice(0, live.start)}${JSON.stringify(list)}${RV_KEY}`;
  const middle = json.slice(old.rvIndex + oldRv.length, old.statusIndex);
  let fields = old.fields;
  const statusFields = Object.entries(type.fieldSelectors).filter(([f]) => f.startsWith('status.'));
  if (statusFields.length > 0) {
    const view = { status };
    const next: { [k: string]: string } = { ...old.fields };
    for (const [f, get] of statusFields) {
      const v = get(view);
      if (v === undefined) delete next[f];
      else next[f] = v;
    }
    fields = next;
  }
  return (rv) => {
    const prefix = before + String(rv) + middle;
    const stored: StoredObject = { ...old, rv, json: prefix + newTail, rvIndex: before.length, statusIndex: prefix.length, fields };
    // The next /status write of this revision reads its managedFields from here, not the JSON.
    parsedManagedFields.set(stored, { value: list, start: live.start });
    return stored;
  };
}

/** The managedFields of revisions this fast path built (never changed once built), as written. */
const parsedManagedFields = new WeakMap<StoredObject, { readonly value: ReadonlyArray<unknown>; readonly start: number }>();

/**
 * The stored `metadata.managedFields` (parsed) and where its value starts, when it is the key
 * right before resourceVersion, itself the last key of metadata; else undefined.
 */
function storedManagedFields(old: StoredObject): { value: unknown; start: number } | undefined {
  const known = parsedManagedFields.get(old);
  if (known) return known;
  const json = old.json;
  const rvKey = old.rvIndex - RV_KEY.length;
  const rvEnd = old.rvIndex + String(old.rv).length;
  if (rvKey < 0 || json.slice(rvKey, old.rvIndex) !== RV_KEY || json.slice(rvEnd, rvEnd + 2) !== '"}') return undefined;
  // No key inside managedFields is `managedFields` with a list value (FieldsV1 keys are `f:...`),
  // and a slice that parses as one list has its brackets matched: the key is metadata's own.
  const key = json.lastIndexOf(`${MANAGED_FIELDS_KEY}[`, rvKey);
  if (key < 1 || (json[key - 1] !== ',' && json[key - 1] !== '{')) return undefined;
  const start = key + MANAGED_FIELDS_KEY.length;
  try {
    return { value: JSON.parse(json.slice(start, rvKey)), start };
  } catch {
    return undefined;
  }
}
