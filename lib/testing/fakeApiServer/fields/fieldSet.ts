import type { JsonObject } from '../resources.js';

// A set of field paths, as structured-merge-diff's fieldpath.Set, keyed by the path elements of
// the FieldsV1 format (apimachinery's fieldsv1_string.go): `f:<name>` a field or map key,
// `k:<JSON of the key fields, sorted>` an item of a map-list, `v:<JSON value>` an item of a set,
// `i:<n>` an index. A path is in the set when its node is a member (`"."` in FieldsV1, or a leaf).

/** One path element in its FieldsV1 spelling (`f:spec`, `k:{"name":"web"}`, `v:"a"`, `i:0`). */
export type PathElement = string;

const NO_CHILDREN = new Map<PathElement, never>();

/** A path: its elements from the root. */
export type FieldPath = ReadonlyArray<PathElement>;

const sortedJson = (v: unknown): string => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return JSON.stringify(v);
  const o = v as JsonObject;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${sortedJson(o[k])}`)
    .join(',')}}`;
};

/** `f:name`. */
export const fieldElement = (name: string): PathElement => `f:${name}`;
/** `k:{"name":"web"}`: the key fields of a map-list item, sorted by name. */
export const keyElement = (key: JsonObject): PathElement => `k:${sortedJson(key)}`;
/** `v:"a"`: a set item. */
export const valueElement = (value: unknown): PathElement => `v:${sortedJson(value)}`;

/**
 * A path as structured-merge-diff prints it (fieldpath `PathElement.String`): `.spec.replicas`,
 * `.spec.containers[name="web"].image`, `[=value]` for a set item, `[0]` for an index.
 *
 * @example
 * ```ts
 * displayPath(['f:spec', 'k:{"name":"web"}', 'f:image']); // '.spec[name="web"].image'
 * ```
 */
export function displayPath(path: FieldPath): string {
  let out = '';
  for (const pe of path) {
    const body = pe.slice(2);
    if (pe.startsWith('f:')) out += `.${body}`;
    else if (pe.startsWith('v:')) out += `[=${body}]`;
    else if (pe.startsWith('i:')) out += `[${body}]`;
    else {
      const key = JSON.parse(body) as JsonObject;
      out += `[${Object.keys(key)
        .sort()
        .map((k) => `${k}=${sortedJson(key[k])}`)
        .join(',')}]`;
    }
  }
  return out;
}

/**
 * A mutable trie of field paths. `member` says the path ending here is in the set; children hold
 * longer paths. Empty nodes are pruned by the operations that could leave them.
 *
 * @example
 * ```ts
 * const s = new FieldSet();
 * s.insert(['f:spec', 'f:replicas']);
 * s.has(['f:spec', 'f:replicas']); // true
 * s.toFieldsV1(); // { 'f:spec': { 'f:replicas': {} } }
 * ```
 */
export class FieldSet {
  member = false;
  // Most nodes are leaves: their children map is allocated on first insert (the shared empty map
  // is never written: every write goes through kidsForWrite()).
  private kids: Map<PathElement, FieldSet> | undefined;

  /** The longer paths, by their next element (read-only; delete is allowed). */
  get children(): Map<PathElement, FieldSet> {
    return this.kids ?? NO_CHILDREN;
  }

  private kidsForWrite(): Map<PathElement, FieldSet> {
    return (this.kids ??= new Map());
  }

  /** Adds `path` (the root itself when empty). */
  insert(path: FieldPath, from = 0): void {
    if (from >= path.length) {
      this.member = true;
      return;
    }
    const kids = this.kidsForWrite();
    let next = kids.get(path[from]);
    if (!next) {
      next = new FieldSet();
      kids.set(path[from], next);
    }
    next.insert(path, from + 1);
  }

  /** The node at `path`, if any. */
  at(path: FieldPath): FieldSet | undefined {
    return path.length === 0 ? this : this.children.get(path[0])?.at(path.slice(1));
  }

  has(path: FieldPath): boolean {
    return this.at(path)?.member ?? false;
  }

  isEmpty(): boolean {
    return !this.member && this.children.size === 0;
  }

  /** Every member path, in element order. */
  paths(prefix: PathElement[] = []): PathElement[][] {
    const out: PathElement[][] = [];
    if (this.member) out.push([...prefix]);
    for (const pe of [...this.children.keys()].sort()) out.push(...this.children.get(pe)!.paths([...prefix, pe]));
    return out;
  }

  /** A new set: the members of this or `other`. */
  union(other: FieldSet): FieldSet {
    const out = this.copy();
    out.addAll(other);
    return out;
  }

  /** Adds every member of `other` to this set. */
  addAll(other: FieldSet): void {
    if (other.member) this.member = true;
    if (other.children.size === 0) return;
    const kids = this.kidsForWrite();
    for (const [pe, child] of other.children) {
      let mine = kids.get(pe);
      if (!mine) {
        mine = new FieldSet();
        kids.set(pe, mine);
      }
      mine.addAll(child);
    }
  }

  /** A new set: the members of this that are not in `other`. */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && !other.member;
    for (const [pe, child] of this.children) {
      const o = other.children.get(pe);
      const d = o ? child.difference(o) : child.copy();
      if (!d.isEmpty()) out.kidsForWrite().set(pe, d);
    }
    return out;
  }

  /** A new set: the members of both. */
  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && other.member;
    for (const [pe, child] of this.children) {
      const o = other.children.get(pe);
      if (!o) continue;
      const i = child.intersection(o);
      if (!i.isEmpty()) out.kidsForWrite().set(pe, i);
    }
    return out;
  }

  /** A deep copy. */
  copy(): FieldSet {
    const out = new FieldSet();
    out.member = this.member;
    for (const [pe, child] of this.children) out.kidsForWrite().set(pe, child.copy());
    return out;
  }

  /** Removes the subtree at the top-level element `pe` (and with it every path under it). */
  drop(path: FieldPath): void {
    if (path.length === 0) return;
    const parent = this.at(path.slice(0, -1));
    parent?.children.delete(path[path.length - 1]);
  }

  equals(other: FieldSet): boolean {
    if (this.member !== other.member || this.children.size !== other.children.size) return false;
    for (const [pe, child] of this.children) {
      const o = other.children.get(pe);
      if (!o || !child.equals(o)) return false;
    }
    return true;
  }

  /** The FieldsV1 JSON: a leaf member is `{}`, an inner member carries `".": {}`. */
  toFieldsV1(): JsonObject {
    const out: JsonObject = {};
    if (this.member && this.children.size > 0) out['.'] = {};
    for (const pe of [...this.children.keys()].sort()) out[pe] = this.children.get(pe)!.toFieldsV1();
    return out;
  }

  /** Reads FieldsV1 JSON (the root is never a member); undefined when it is not FieldsV1. */
  static fromFieldsV1(json: unknown): FieldSet | undefined {
    const read = (v: unknown, isRoot: boolean): FieldSet | undefined => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
      const node = new FieldSet();
      const keys = Object.keys(v);
      if (keys.length === 0 && !isRoot) node.member = true;
      for (const k of keys) {
        if (k === '.') {
          node.member = true;
          continue;
        }
        if (!/^[fkvi]:/.test(k)) return undefined;
        const child = read((v as JsonObject)[k], false);
        if (!child) return undefined;
        node.kidsForWrite().set(k, child);
      }
      return node;
    };
    return read(json, true);
  }
}

// The same operations on FieldsV1 JSON itself, for the managedFields of an Update: most entries
// are untouched by a write, and these leave them (and every untouched subtree) as they are,
// without decoding or re-encoding them. The root of an entry is never a member.

const isMemberJson = (j: JsonObject, isRoot: boolean): boolean => !isRoot && (Object.hasOwn(j, '.') || Object.keys(j).length === 0);

/** Whether FieldsV1 `json` has a member of `set`. */
export function fieldsV1Intersects(json: JsonObject, set: FieldSet, isRoot = true): boolean {
  if (set.member && isMemberJson(json, isRoot)) return true;
  for (const [pe, child] of set.children) {
    const j = json[pe];
    if (typeof j === 'object' && j !== null && fieldsV1Intersects(j as JsonObject, child, false)) return true;
  }
  return false;
}

/** FieldsV1 `json` without the members of `set` (`json` itself if none; undefined if nothing is left). */
export function fieldsV1Difference(json: JsonObject, set: FieldSet, isRoot = true): JsonObject | undefined {
  const wasMember = isMemberJson(json, isRoot);
  const member = wasMember && !set.member;
  let changed = member !== wasMember;
  const kids: [string, JsonObject][] = [];
  for (const k of Object.keys(json)) {
    if (k === '.') continue;
    const child = json[k] as JsonObject;
    const sub = set.children.get(k);
    const d = sub ? fieldsV1Difference(child, sub, false) : child;
    if (d !== child) changed = true;
    if (d !== undefined) kids.push([k, d]);
  }
  if (!changed) return json;
  if (kids.length === 0) return member ? {} : undefined;
  const out: JsonObject = member ? { '.': {} } : {};
  for (const [k, v] of kids) out[k] = v;
  return out;
}

/** FieldsV1 `json` (or none) with the members of `set` added, keys sorted. */
export function fieldsV1Union(json: JsonObject | undefined, set: FieldSet, isRoot = true): JsonObject {
  const member = (json !== undefined && isMemberJson(json, isRoot)) || (set.member && !isRoot);
  const keys = new Set<string>(json ? Object.keys(json).filter((k) => k !== '.') : []);
  for (const k of set.children.keys()) keys.add(k);
  const out: JsonObject = member && keys.size > 0 ? { '.': {} } : {};
  let same = json !== undefined;
  for (const k of [...keys].sort()) {
    const sub = set.children.get(k);
    const v = sub ? fieldsV1Union(json?.[k] as JsonObject | undefined, sub, false) : json![k];
    if (same && v !== json![k]) same = false;
    out[k] = v;
  }
  // Nothing added: `json` itself, so that an owner's unchanged set keeps its identity (and its
  // serialised text, statusWrite.ts) from write to write.
  return same && sameShape(out, json!) ? json! : out;
}

/** Whether `b` has the keys of `a` in the same order, a `.` marker where `a` has one. */
function sameShape(a: JsonObject, b: JsonObject): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return false;
  return !Object.hasOwn(a, '.') || isEmptyObject(b['.']);
}

const isEmptyObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
