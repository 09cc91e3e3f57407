import { History, type Change } from './history.js';
import type { JsonObject, ResourceType } from '../resources.js';
import { serialize, storedObject, type Serialized, type StoredObject } from './storedObject.js';

interface Table {
  readonly objects: Map<string, StoredObject>;
  /** Keys in order, rebuilt lazily after an add or a delete (updates keep the order). */
  sorted: string[] | undefined;
}

function lowerBound(keys: ReadonlyArray<string>, key: string, inclusive: boolean): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key || (!inclusive && keys[mid] === key)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The in-memory etcd: one global revision counter for every type, the objects of each type, and
 * the bounded history of changes. Every write goes through `put`/`remove`, which bump the
 * revision, record the change and tell the watch hub (synchronously, so that a snapshot taken in
 * the same tick plus the changes after it are exactly the stream a watcher must see).
 */
export class Storage {
  private rv = 0;
  private readonly tables = new Map<string, Table>();
  private readonly listeners = new Set<(c: Change) => void>();
  readonly history: History;

  constructor(historyLimit: number) {
    this.history = new History(historyLimit);
  }

  /** The current global revision. */
  get resourceVersion(): number {
    return this.rv;
  }

  onChange(listener: (c: Change) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private table(type: ResourceType): Table {
    let t = this.tables.get(type.id);
    if (!t) {
      t = { objects: new Map(), sorted: undefined };
      this.tables.set(type.id, t);
    }
    return t;
  }

  get(type: ResourceType, key: string): StoredObject | undefined {
    return this.tables.get(type.id)?.objects.get(key);
  }

  count(type: ResourceType): number {
    return this.tables.get(type.id)?.objects.size ?? 0;
  }

  /** Writes `obj` (ADDED or MODIFIED) at a new revision, which it sets in `obj.metadata`. */
  put(type: ResourceType, obj: JsonObject | Serialized): StoredObject {
    const serialized = 'before' in obj ? (obj as Serialized) : serialize(obj);
    return this.putBuilt(type, (rv) => storedObject(type, serialized, rv));
  }

  /** Writes the object `build` makes at a new revision (a write that needs no serialisation, see statusWrite.ts). */
  putBuilt(type: ResourceType, build: (rv: number) => StoredObject): StoredObject {
    const rv = ++this.rv;
    const stored = build(rv);
    const table = this.table(type);
    const prev = table.objects.get(stored.key);
    table.objects.set(stored.key, stored);
    if (!prev) table.sorted = undefined;
    this.commit({ rv, type: prev ? 'MODIFIED' : 'ADDED', resource: type, obj: stored, prev });
    return stored;
  }

  /** Deletes the object at `key`; `last` is its final state, stamped with the delete's revision. */
  remove(type: ResourceType, key: string, last: JsonObject): StoredObject {
    const table = this.table(type);
    const prev = table.objects.get(key);
    const rv = ++this.rv;
    const stored = storedObject(type, serialize(last), rv);
    table.objects.delete(key);
    table.sorted = undefined;
    this.commit({ rv, type: 'DELETED', resource: type, obj: stored, prev });
    return stored;
  }

  /**
   * Writes (or, with `obj` undefined, deletes) the object at `key` at the current revision, without
   * a new one: the other half of a write that two resources share (core/v1 and events.k8s.io/v1
   * Events are one storage), so both show the same resourceVersion.
   */
  mirror(type: ResourceType, key: string, obj: JsonObject | undefined, last?: JsonObject): StoredObject | undefined {
    const table = this.table(type);
    const prev = table.objects.get(key);
    if (!obj && !prev) return undefined;
    const rv = this.rv;
    const stored = storedObject(type, serialize(obj ?? last!), rv);
    if (obj) table.objects.set(key, stored);
    else table.objects.delete(key);
    if (!obj || !prev) table.sorted = undefined;
    this.commit({ rv, type: !obj ? 'DELETED' : prev ? 'MODIFIED' : 'ADDED', resource: type, obj: stored, prev });
    return stored;
  }

  /**
   * Replaces the stored form of an object at its revision, without a new revision or an event:
   * kube-apiserver prunes and defaults custom resources when it reads them from etcd, so after a
   * CRD's schema changed, reads show the new defaults at the old resourceVersion. Done once here
   * rather than on every read. Ignored when the object changed meanwhile.
   */
  rewrite(type: ResourceType, stored: StoredObject): void {
    const table = this.tables.get(type.id);
    if (table?.objects.get(stored.key)?.rv === stored.rv) table.objects.set(stored.key, stored);
  }

  private commit(c: Change): void {
    this.history.push(c);
    for (const l of this.listeners) l(c);
  }

  private sortedKeys(type: ResourceType): string[] {
    const t = this.table(type);
    if (!t.sorted) t.sorted = [...t.objects.keys()].sort();
    return t.sorted;
  }

  /**
   * The objects of `type` at revision `rv` (>= history.compactedRv), in key order, restricted to
   * `namespace` when given, starting after key `after`. The current state is rolled back with the
   * changes recorded after `rv` (an overlay of the keys they touched).
   */
  *snapshot(type: ResourceType, rv: number, namespace?: string, after?: string): Generator<StoredObject> {
    const table = this.table(type);
    const live = this.sortedKeys(type);
    const overlay = new Map<string, StoredObject | null>();
    if (rv < this.rv) {
      for (const c of this.history.since(rv)) {
        if (c.resource.id !== type.id || overlay.has(c.obj.key)) continue;
        overlay.set(c.obj.key, c.type === 'ADDED' ? null : (c.prev ?? null));
      }
    }
    const extra = [...overlay.entries()]
      .filter(([k, v]) => v !== null && !table.objects.has(k))
      .map(([k]) => k)
      .sort();
    const lo = namespace ? `${namespace}/` : '';
    const hi = namespace ? `${namespace}0` : undefined; // '0' is the character after '/'
    const start = after !== undefined && after >= lo ? after : lo;
    const inclusive = !(after !== undefined && after >= lo);
    let i = lowerBound(live, start, inclusive);
    let j = lowerBound(extra, start, inclusive);
    for (;;) {
      const a = i < live.length ? live[i] : undefined;
      const b = j < extra.length ? extra[j] : undefined;
      let key: string;
      if (a !== undefined && (b === undefined || a < b)) {
        key = a;
        i++;
      } else if (b !== undefined) {
        key = b;
        j++;
      } else return;
      if (hi !== undefined && key >= hi) return;
      const o = overlay.has(key) ? overlay.get(key) : table.objects.get(key);
      if (o) yield o;
    }
  }

  /** Whether objects of `type` changed after `rv` (so a snapshot at `rv` needs the overlay). */
  isCurrentFor(type: ResourceType, rv: number): boolean {
    return rv >= this.rv || this.history.since(rv).every((c) => c.resource.id !== type.id);
  }

  /** Number of objects of `type` in `namespace` (or all), at the current revision. */
  liveCount(type: ResourceType, namespace?: string): number {
    if (!namespace) return this.count(type);
    const keys = this.sortedKeys(type);
    return lowerBound(keys, `${namespace}0`, true) - lowerBound(keys, `${namespace}/`, true);
  }

  /** Position of the first key after `after` within the namespace range (for remainingItemCount). */
  remainingLive(type: ResourceType, namespace: string | undefined, after: string): number {
    const keys = this.sortedKeys(type);
    const end = namespace ? lowerBound(keys, `${namespace}0`, true) : keys.length;
    return Math.max(0, end - lowerBound(keys, after, false));
  }
}
