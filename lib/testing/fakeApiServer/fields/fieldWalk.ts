import { fieldElement, FieldSet, keyElement, valueElement, type PathElement } from './fieldSet.js';
import { fieldSchema, isAtomicMap, listTypeOf, type ListType, type MergeSchema } from './listTypes.js';
import type { JsonObject } from '../resources.js';

// The schema-aware walks of server-side apply over plain JSON objects (structured-merge-diff's
// typed.ToFieldSet, Compare, Merge and RemoveItems): which fields an object sets, what changed
// between two objects, the merge of an apply configuration into a live object, and the removal
// of fields. Objects are granular unless marked atomic; lists follow their list type.

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Equality of JSON values, key order aside. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as JsonObject)[k], (b as JsonObject)[k]));
}

/** A map-list item's key fields could not be read (structured-merge-diff's wording). */
export class ListKeyError extends Error {}

/** The path element of list item `item` at `index`: `k:` by key fields, `v:` for a set, else `i:`. */
export function itemElement(list: ListType, item: unknown, index: number, strict: boolean): PathElement {
  if (list.type === 'set') return valueElement(item);
  if (list.type === 'map') {
    const key: JsonObject = {};
    for (const k of list.keys) {
      const v = isObject(item) && item[k] !== undefined && item[k] !== null ? item[k] : list.defaults[k];
      if (v !== undefined) key[k] = v;
    }
    if (Object.keys(key).length > 0) return keyElement(key);
    if (strict) {
      throw new ListKeyError(
        `element ${index}: associative list with keys has an element that omits all key fields ${JSON.stringify(list.keys)} (and doesn't have default values for any key fields)`,
      );
    }
  }
  return `i:${index}`;
}

/** Items of a list by their path element; a duplicate key is an error when `strict`. */
function itemsByElement(list: ListType, items: unknown[], strict: boolean, path: string): Map<PathElement, unknown> {
  const out = new Map<PathElement, unknown>();
  items.forEach((item, i) => {
    const pe = itemElement(list, item, i, strict);
    if (strict && out.has(pe) && list.type === 'map') throw new ListKeyError(`${path}: duplicate entries for key ${pe.slice(2)}`);
    out.set(pe, item);
  });
  return out;
}

/**
 * Inserts into `set` the fields `value` sets at `path`. With `withParents` (what an Update adds),
 * objects are members too (FieldsV1 `"."`); without (what an apply configuration sets, as
 * ToFieldSet), only leaves, atomic values and list items are.
 */
export function insertFields(set: FieldSet, value: unknown, schema: MergeSchema | undefined, path: PathElement[], withParents: boolean, strict = false): void {
  if (Array.isArray(value)) {
    const list = listTypeOf(schema);
    if (list.type === 'atomic' || value.length === 0) {
      set.insert(path);
      return;
    }
    for (const [pe, item] of itemsByElement(list, value, strict, path.join('.'))) insertItem(set, list, item, schema, [...path, pe], withParents, strict);
    return;
  }
  if (isObject(value) && !isAtomicMap(schema)) {
    // An Update owns a map (labels, data: an object with additionalProperties) itself, and an
    // empty struct; a struct with fields only through them (as kube's managedFields show).
    const isMap = typeof schema?.additionalProperties === 'object' || Object.keys(value).length === 0;
    if (withParents && path.length > 0 && isMap) set.insert(path);
    if (!withParents && Object.keys(value).length === 0) return;
    insertObject(set, value, schema, path, withParents, strict);
    return;
  }
  set.insert(path);
}

/** A list item: the item itself, and a map-list item's fields. */
function insertItem(set: FieldSet, list: ListType, item: unknown, schema: MergeSchema | undefined, path: PathElement[], withParents: boolean, strict: boolean): void {
  set.insert(path);
  if (list.type === 'map' && isObject(item)) insertObject(set, item, schema?.items, path, withParents, strict);
}

function insertObject(set: FieldSet, obj: JsonObject, schema: MergeSchema | undefined, path: PathElement[], withParents: boolean, strict: boolean): void {
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined) continue;
    insertFields(set, v, fieldSchema(schema, k), [...path, fieldElement(k)], withParents, strict);
  }
}

/** What changed from `before` to `after`: fields added, modified and removed. */
export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

/**
 * Compares two objects field by field (structured-merge-diff's Compare): a field only in `after`
 * is added (with everything under it), only in `before` removed, in both with another value
 * modified; objects and keyed lists are compared item by item.
 */
export function compare(before: unknown, after: unknown, schema: MergeSchema | undefined): Comparison {
  const c = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walkCompare(c, before, after, schema, []);
  return c;
}

// `path` is one array for the whole walk (pushed and popped): sets copy what they keep.
function walkCompare(c: Comparison, before: unknown, after: unknown, schema: MergeSchema | undefined, path: PathElement[]): void {
  if (before === after) return;
  if (before === undefined) return insertFields(c.added, after, schema, path, true);
  if (after === undefined) return insertFields(c.removed, before, schema, path, true);
  if (isObject(before) && isObject(after) && !isAtomicMap(schema)) {
    for (const k of Object.keys(after)) {
      // Most of an object is unchanged by a write: equal values are skipped before any path or
      // schema lookup is built for them.
      const b = before[k];
      const a = after[k];
      if (b === a || (typeof a === 'object' && deepEqual(b, a))) continue;
      path.push(fieldElement(k));
      walkCompare(c, b, a, fieldSchema(schema, k), path);
      path.pop();
    }
    for (const k of Object.keys(before)) {
      if (after[k] === undefined && before[k] !== undefined) insertFields(c.removed, before[k], fieldSchema(schema, k), [...path, fieldElement(k)], true);
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const list = listTypeOf(schema);
    if (list.type !== 'atomic') {
      if (sameItemsInOrder(c, list, before, after, schema, path)) return;
      const b = itemsByElement(list, before, false, '');
      const a = itemsByElement(list, after, false, '');
      for (const [pe, item] of a) {
        if (!b.has(pe)) insertItem(c.added, list, item, schema, [...path, pe], true, false);
        else if (list.type === 'map') {
          path.push(pe);
          walkCompare(c, b.get(pe), item, schema?.items, path);
          path.pop();
        }
      }
      for (const [pe, item] of b) if (!a.has(pe)) insertItem(c.removed, list, item, schema, [...path, pe], true, false);
      return;
    }
  }
  if (!deepEqual(before, after)) c.modified.insert(path);
}

/**
 * The common case of a keyed list or set: the same items in the same order (compared item by item,
 * without building maps). False, having compared nothing, when they are not.
 */
function sameItemsInOrder(c: Comparison, list: ListType, before: unknown[], after: unknown[], schema: MergeSchema | undefined, path: PathElement[]): boolean {
  if (before.length !== after.length) return false;
  // Equal items have equal elements and no changes: only the others' elements are computed.
  const changed: Array<[number, PathElement]> = [];
  for (let i = 0; i < after.length; i++) {
    if (before[i] === after[i] || deepEqual(before[i], after[i])) continue;
    const pe = itemElement(list, after[i], i, false);
    if (pe !== itemElement(list, before[i], i, false)) return false;
    changed.push([i, pe]);
  }
  if (list.type !== 'map') return true;
  for (const [i, pe] of changed) {
    path.push(pe);
    walkCompare(c, before[i], after[i], schema?.items, path);
    path.pop();
  }
  return true;
}

/**
 * Merges an apply configuration into the live object (structured-merge-diff's Merge): objects
 * merge field by field, keyed lists item by item (new items appended), sets add their new items,
 * everything else (scalars, atomic lists and maps) is the configuration's.
 */
export function merge(live: unknown, config: unknown, schema: MergeSchema | undefined): unknown {
  if (live === undefined) return config;
  if (isObject(live) && isObject(config) && !isAtomicMap(schema)) {
    const out: JsonObject = { ...live };
    for (const [k, v] of Object.entries(config)) {
      if (v === undefined) continue;
      Object.defineProperty(out, k, { value: merge(live[k], v, fieldSchema(schema, k)), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  const list = listTypeOf(schema);
  if (Array.isArray(live) && Array.isArray(config) && list.type !== 'atomic') {
    const out = [...live];
    const index = new Map<PathElement, number>();
    live.forEach((item, i) => index.set(itemElement(list, item, i, false), i));
    config.forEach((item, i) => {
      const pe = itemElement(list, item, i, false);
      const at = index.get(pe);
      if (at === undefined) {
        index.set(pe, out.length);
        out.push(item);
      } else if (list.type === 'map') out[at] = merge(out[at], item, schema?.items);
    });
    return out;
  }
  return config;
}

/**
 * `value` without the fields in `remove`, except those at or above a field of `keep` (another
 * manager's: a container whose image someone else owns stays, with that image).
 */
export function removeFields(value: unknown, remove: FieldSet, keep: FieldSet | undefined, schema: MergeSchema | undefined): unknown {
  if (remove.children.size === 0) return value;
  if (isObject(value)) {
    const out: JsonObject = { ...value };
    for (const [pe, node] of remove.children) {
      if (!pe.startsWith('f:')) continue;
      const k = pe.slice(2);
      if (!Object.hasOwn(out, k)) continue;
      const kept = keep?.children.get(pe);
      if (node.member && (!kept || kept.isEmpty())) delete out[k];
      else out[k] = removeFields(out[k], node, kept, fieldSchema(schema, k));
    }
    return out;
  }
  if (Array.isArray(value)) {
    const list = listTypeOf(schema);
    const out: unknown[] = [];
    value.forEach((item, i) => {
      const pe = itemElement(list, item, i, false);
      const node = remove.children.get(pe);
      const kept = keep?.children.get(pe);
      if (!node) out.push(item);
      else if (node.member && (!kept || kept.isEmpty())) return;
      else out.push(removeFields(item, node, kept, schema?.items));
    });
    return out;
  }
  return value;
}

/**
 * The FieldsV1 of everything `value` sets, as an Update that creates it owns it (what
 * {@link insertFields} with parents gives, built as JSON in one walk: the create path).
 */
export function createdFieldsV1(value: JsonObject, schema: MergeSchema | undefined): JsonObject {
  return fieldsV1Node(value, schema, true) ?? {};
}

function fieldsV1Node(value: unknown, schema: MergeSchema | undefined, isRoot: boolean): JsonObject | undefined {
  if (Array.isArray(value)) {
    const list = listTypeOf(schema);
    if (list.type === 'atomic' || value.length === 0) return {};
    const items = new Map<PathElement, JsonObject>();
    value.forEach((item, i) => {
      const pe = itemElement(list, item, i, false);
      const kids = list.type === 'map' && isObject(item) ? fieldsV1Node(item, schema?.items, true) : undefined;
      items.set(pe, kids && Object.keys(kids).length > 0 ? { '.': {}, ...kids } : {});
    });
    const out: JsonObject = {};
    for (const pe of [...items.keys()].sort()) out[pe] = items.get(pe);
    return out;
  }
  if (isObject(value) && !isAtomicMap(schema)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    const member = !isRoot && (typeof schema?.additionalProperties === 'object' || keys.length === 0);
    const out: JsonObject = member && keys.length > 0 ? { '.': {} } : {};
    for (const k of keys) {
      const child = fieldsV1Node(value[k], fieldSchema(schema, k), false);
      if (child !== undefined) out[`f:${k}`] = child;
    }
    return member || Object.keys(out).length > 0 ? out : undefined;
  }
  return {};
}
