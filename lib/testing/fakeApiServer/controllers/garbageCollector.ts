import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type PropagationPolicy } from '../registry/deletion.js';
import type { Change } from '../storage/history.js';
import type { Registry } from '../registry/store.js';
import { inBackground } from './inBackground.js';
import type { JsonObject, ResourceType } from '../resources.js';
import type { ResourceTypes } from '../registry/resourceTypes.js';
import type { Storage } from '../storage/storage.js';
import { objectKey, parseStored, type OwnerLink, type StoredObject } from '../storage/storedObject.js';

// kube-controller-manager's garbage collector (TESTCLUSTER.md §3) over the fake's storage: it
// follows ownerReferences by uid, deletes dependents whose owners are all gone, patches out the
// references to gone owners when another owner remains, and finishes Orphan and Foreground
// deletions by removing their finalizers. It acts only through the registry, so every step is a
// real write that watchers see.

/** One unit of work of the garbage collector. */
export type GcItem =
  /** Check a dependent's owners (attemptToDeleteItem). */
  | { readonly kind: 'dependent'; readonly type: ResourceType; readonly key: string }
  /** Finish an owner's Orphan or Foreground deletion (its `orphan`/`foregroundDeletion` finalizer). */
  | { readonly kind: 'owner'; readonly type: ResourceType; readonly key: string };

/** Types the garbage collector ignores (Events take no part in garbage collection). */
const IGNORED = new Set(['events', 'events.events.k8s.io']);
const ref = (type: ResourceType, key: string): string => `${type.id}\u0000${key}`;

interface Located {
  readonly type: ResourceType;
  readonly key: string;
}

/**
 * The garbage collector's graph (dependents by owner uid, uids seen deleted) and its work. `observe`
 * is fed every storage change and returns the work it makes; `process` does one item.
 *
 * An owner reference counts as gone when the server has seen that uid deleted, or the object of
 * that kind and name now has another uid. A reference to an object this server never held is left
 * alone (unlike kube, which would collect it), so seeded fixtures whose owners are not created
 * (`realisticPod`) stay.
 */
export class GarbageCollector {
  private readonly dependents = new Map<string, Map<string, Located>>();
  private readonly deletedUids = new Set<string>();
  private readonly waitingOwners = new Map<string, Located>();

  constructor(
    private readonly storage: Storage,
    private readonly types: ResourceTypes,
    private readonly registry: () => Registry,
  ) {}

  /** Updates the graph from one change; returns the items it makes due. */
  observe(c: Change): GcItem[] {
    if (IGNORED.has(c.resource.id)) return [];
    const items: GcItem[] = [];
    const { obj, prev, resource: type } = c;
    const owners = c.type === 'DELETED' ? undefined : obj.owners;
    if (prev?.owners !== owners) {
      this.unlink(type, obj.key, prev?.owners);
      this.link(type, obj.key, owners);
      // Only a reference to an owner already gone (or deleting in Foreground) makes work now; the
      // owners' own deletions bring the rest.
      if (owners && !sameOwners(prev?.owners, owners) && owners.some((o) => this.deletedUids.has(o.uid) || this.waitingOwners.has(o.uid))) {
        items.push({ kind: 'dependent', type, key: obj.key });
      }
    }
    if (c.type === 'DELETED') {
      this.deletedUids.add(obj.uid);
      this.waitingOwners.delete(obj.uid);
      for (const d of this.dependents.get(obj.uid)?.values() ?? []) items.push({ kind: 'dependent', type: d.type, key: d.key });
      // An owner waiting in Foreground for this dependent may now finish.
      for (const o of obj.owners ?? []) {
        const w = this.waitingOwners.get(o.uid);
        if (w) items.push({ kind: 'owner', ...w });
      }
    } else if (obj.deleting && obj.hasFinalizers) {
      const finalizers = (parseStored(obj).metadata as { finalizers?: string[] }).finalizers ?? [];
      if (finalizers.includes(ORPHAN_FINALIZER) || finalizers.includes(FOREGROUND_FINALIZER)) {
        this.waitingOwners.set(obj.uid, { type, key: obj.key });
        items.push({ kind: 'owner', type, key: obj.key });
      } else this.waitingOwners.delete(obj.uid);
    }
    return items;
  }

  private link(type: ResourceType, key: string, owners: ReadonlyArray<OwnerLink> | undefined): void {
    for (const o of owners ?? []) {
      let m = this.dependents.get(o.uid);
      if (!m) this.dependents.set(o.uid, (m = new Map()));
      m.set(ref(type, key), { type, key });
    }
  }

  private unlink(type: ResourceType, key: string, owners: ReadonlyArray<OwnerLink> | undefined): void {
    for (const o of owners ?? []) {
      const m = this.dependents.get(o.uid);
      m?.delete(ref(type, key));
      if (m?.size === 0) this.dependents.delete(o.uid);
    }
  }

  /** Does one item; failures (the object changed or went meanwhile) are dropped: a later change brings the item back. */
  process(item: GcItem): void {
    const stored = this.storage.get(item.type, item.key);
    if (!stored) return;
    if (item.kind === 'dependent') this.attemptToDelete(item.type, stored);
    else this.finishDeletion(item.type, stored);
  }

  /** The owner object a reference names, resolved in the dependent's namespace for namespaced kinds. */
  private ownerOf(o: OwnerLink, namespace: string): { state: 'solid' | 'dangling' | 'waiting' | 'unknown'; stored?: StoredObject } {
    if (this.deletedUids.has(o.uid)) return { state: 'dangling' };
    const type = this.types.all().find((t) => t.apiVersion === o.apiVersion && t.kind === o.kind);
    if (!type) return { state: 'unknown' };
    // A cluster-scoped dependent cannot have a namespaced owner; a namespaced one looks in its own namespace.
    if (type.namespaced && !namespace) return { state: 'unknown' };
    const stored = this.storage.get(type, objectKey(type.namespaced ? namespace : '', o.name));
    if (!stored) return { state: 'unknown' };
    if (stored.uid !== o.uid) return { state: 'dangling' };
    return { state: this.waitingOwners.has(o.uid) && isForeground(stored) ? 'waiting' : 'solid', stored };
  }

  private attemptToDelete(type: ResourceType, dep: StoredObject): void {
    const owners = dep.owners ?? [];
    if (owners.length === 0) return;
    const states = owners.map((o) => ({ o, ...this.ownerOf(o, dep.namespace) }));
    const solid = states.filter((s) => s.state === 'solid' || s.state === 'unknown');
    const gone = states.filter((s) => s.state === 'dangling' || s.state === 'waiting');
    if (gone.length === 0) return;
    if (solid.length > 0) {
      // Another owner remains: only the references to gone (or foreground-deleting) owners go.
      const goneUids = new Set(gone.map((s) => s.o.uid));
      this.rewrite(type, dep, (obj) => {
        const meta = obj.metadata as { ownerReferences?: Array<{ uid?: string }> };
        meta.ownerReferences = (meta.ownerReferences ?? []).filter((r) => !goneUids.has(r.uid ?? ''));
        if (meta.ownerReferences.length === 0) delete meta.ownerReferences;
      });
      return;
    }
    if (dep.deleting && !isForeground(dep)) return; // already on its way out
    let policy: PropagationPolicy;
    const hasDependents = (this.dependents.get(dep.uid)?.size ?? 0) > 0;
    if (gone.some((s) => s.state === 'waiting') && hasDependents) policy = 'Foreground';
    else {
      const finalizers = dep.hasFinalizers ? ((parseStored(dep).metadata as { finalizers?: string[] }).finalizers ?? []) : [];
      policy = finalizers.includes(ORPHAN_FINALIZER) ? 'Orphan' : finalizers.includes(FOREGROUND_FINALIZER) ? 'Foreground' : 'Background';
    }
    if (dep.deleting) return;
    inBackground(this.registry().delete(type, dep.namespace, dep.name, { preconditions: { uid: dep.uid }, propagationPolicy: policy }));
  }

  /** An owner deleting with `orphan` or `foregroundDeletion`: orphan or delete its dependents, then drop the finalizer. */
  private finishDeletion(type: ResourceType, owner: StoredObject): void {
    if (!owner.deleting) return;
    const finalizers = (parseStored(owner).metadata as { finalizers?: string[] }).finalizers ?? [];
    const deps = [...(this.dependents.get(owner.uid)?.values() ?? [])];
    if (finalizers.includes(ORPHAN_FINALIZER)) {
      for (const d of deps) {
        const dep = this.storage.get(d.type, d.key);
        if (!dep) continue;
        this.rewrite(d.type, dep, (obj) => {
          const meta = obj.metadata as { ownerReferences?: Array<{ uid?: string }> };
          meta.ownerReferences = (meta.ownerReferences ?? []).filter((r) => r.uid !== owner.uid);
          if (meta.ownerReferences.length === 0) delete meta.ownerReferences;
        });
      }
      this.removeFinalizer(type, owner, ORPHAN_FINALIZER);
      return;
    }
    if (!finalizers.includes(FOREGROUND_FINALIZER)) return;
    let blocking = 0;
    for (const d of deps) {
      const dep = this.storage.get(d.type, d.key);
      if (!dep) continue;
      if (dep.owners?.some((o) => o.uid === owner.uid && o.blockOwnerDeletion)) blocking++;
      this.attemptToDelete(d.type, dep);
    }
    // Dependents deleted at once are gone now; those that wait for finalizers keep blocking.
    const stillBlocking = blocking > 0 && deps.some((d) => this.storage.get(d.type, d.key)?.owners?.some((o) => o.uid === owner.uid && o.blockOwnerDeletion));
    const current = this.storage.get(type, owner.key);
    if (!stillBlocking && current && current.uid === owner.uid) this.removeFinalizer(type, current, FOREGROUND_FINALIZER);
  }

  private removeFinalizer(type: ResourceType, stored: StoredObject, finalizer: string): void {
    this.rewrite(type, stored, (obj) => {
      const meta = obj.metadata as { finalizers?: string[] };
      meta.finalizers = (meta.finalizers ?? []).filter((f) => f !== finalizer);
      if (meta.finalizers.length === 0) delete meta.finalizers;
    });
  }

  /** A PUT of the stored object changed by `change`, conditional on its resourceVersion (a conflict drops the step). */
  private rewrite(type: ResourceType, stored: StoredObject, change: (obj: JsonObject) => void): void {
    const obj = parseStored(stored);
    change(obj);
    inBackground(this.registry().update(type, stored.namespace, stored.name, obj));
  }
}

const isForeground = (s: StoredObject): boolean =>
  s.deleting && s.hasFinalizers && ((parseStored(s).metadata as { finalizers?: string[] }).finalizers ?? []).includes(FOREGROUND_FINALIZER);

const sameOwners = (a: ReadonlyArray<OwnerLink> | undefined, b: ReadonlyArray<OwnerLink>): boolean =>
  a !== undefined && a.length === b.length && a.every((o, i) => o.uid === b[i].uid);
