import type { Change } from '../storage/history.js';
import { KUBERNETES_FINALIZER } from '../registry/strategies/core.js';
import { inBackground } from './inBackground.js';
import type { Registry } from '../registry/store.js';
import type { JsonObject } from '../resources.js';
import type { ResourceTypes } from '../registry/resourceTypes.js';
import type { Storage } from '../storage/storage.js';
import { parseStored } from '../storage/storedObject.js';

// kube-controller-manager's namespace controller (TESTCLUSTER.md §4): a Terminating namespace is
// emptied (a Background delete of everything in it, whose finalizers are honoured), then its
// `kubernetes` finalizer is removed through `/finalize`, which deletes it.

const EVERYTHING = { isEmpty: true, matches: () => true };

/**
 * The namespace controller: `observe` names the Terminating namespaces a change concerns, `process`
 * moves one of them on.
 */
export class NamespaceController {
  private readonly terminating = new Set<string>();

  constructor(
    private readonly storage: Storage,
    private readonly types: ResourceTypes,
    private readonly registry: () => Registry,
  ) {}

  /** The namespace to look at again after `c`, if any. */
  observe(c: Change): string | undefined {
    if (c.resource.id === 'namespaces') {
      if (c.type === 'DELETED') this.terminating.delete(c.obj.name);
      else if (c.obj.deleting) this.terminating.add(c.obj.name);
      return c.obj.deleting && c.type !== 'DELETED' ? c.obj.name : undefined;
    }
    // Content of a Terminating namespace changed (an object went or lost a finalizer).
    return c.resource.namespaced && this.terminating.has(c.obj.namespace) ? c.obj.namespace : undefined;
  }

  /** Deletes what is left in `name`; once nothing is, finalizes it. */
  process(name: string): void {
    const nsType = this.types.resolve('namespaces');
    const ns = this.storage.get(nsType, name);
    if (!ns?.deleting) return;
    const obj = parseStored(ns);
    const finalizers = ((obj.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []);
    if (!finalizers.includes(KUBERNETES_FINALIZER)) return;
    const remaining: string[] = [];
    const withFinalizers: string[] = [];
    for (const type of this.types.stored()) {
      if (!type.namespaced) continue;
      const live = [...this.storage.snapshot(type, this.storage.resourceVersion, name)];
      if (live.some((o) => !o.deleting)) inBackground(this.registry().deleteCollection(type, name, EVERYTHING, { propagationPolicy: 'Background' }));
      const left = this.storage.liveCount(type, name);
      if (left > 0) {
        remaining.push(`${type.plural}.${type.group} has ${left} resource instances`);
        withFinalizers.push(`${type.plural}.${type.group}`);
      }
    }
    const current = this.storage.get(nsType, name);
    if (!current) return;
    if (remaining.length > 0) {
      this.setConditions(name, remaining);
      return;
    }
    const done = parseStored(current);
    const spec = (done.spec ?? {}) as JsonObject;
    done.spec = { ...spec, finalizers: ((spec.finalizers as string[] | undefined) ?? []).filter((f) => f !== KUBERNETES_FINALIZER) };
    inBackground(this.registry().update(nsType, '', name, done, 'finalize'));
  }

  /** The namespace's deletion conditions while content remains (`NamespaceContentRemaining`). */
  private setConditions(name: string, remaining: ReadonlyArray<string>): void {
    const nsType = this.types.resolve('namespaces');
    const current = this.storage.get(nsType, name);
    if (!current) return;
    const obj = parseStored(current);
    const status = (obj.status ?? {}) as { conditions?: Array<{ type: string }> };
    const condition = {
      type: 'NamespaceContentRemaining',
      status: 'True',
      lastTransitionTime: (current.system.deletionTimestamp ?? ''),
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${remaining.join(', ')}`,
    };
    const others = (status.conditions ?? []).filter((c) => c.type !== condition.type);
    obj.status = { ...status, conditions: [...others, condition] };
    inBackground(this.registry().update(nsType, '', name, obj, 'status'));
  }
}
