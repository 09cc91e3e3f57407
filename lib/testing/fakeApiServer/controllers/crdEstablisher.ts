// kube-apiserver's apiextensions naming and establishing controllers: shortly after a CRD is created
// or changed (one scheduler tick here), its names are accepted unless another CRD of its group holds
// them (crdNames.ts), and it is marked Established once they are (a MODIFIED event of its status):
// clients that wait for Established (kubectl wait --for condition=established, rxkube's followCrd)
// depend on it. When a CRD is deleted, the other CRDs of its group are looked at again (its names
// are free). The annotation below keeps a CRD from ever being established, for tests of clients
// that must wait.
import type { SchedulerLike } from 'rxjs';
import { customResourceDefinitionType, definitionFromCrd } from '../registry/customResourceDefinitions.js';
import type { Change } from '../storage/history.js';
import type { Registry } from '../registry/store.js';
import { inBackground } from './inBackground.js';
import type { JsonObject } from '../resources.js';
import { parseStored } from '../storage/storedObject.js';
import { crdNaming, establishedAfter, requestedNames, type CrdCondition } from './crdNames.js';

/** A CRD with this annotation set to `"true"` is never marked Established by the fake API server. */
export const neverEstablishAnnotation = 'fake.rxkube.io/never-establish';

interface Condition {
  readonly type?: unknown;
  readonly status?: unknown;
  readonly reason?: unknown;
  readonly message?: unknown;
  readonly lastTransitionTime?: unknown;
}

const conditionsOf = (crd: JsonObject): Condition[] => (crd['status'] as { conditions?: Condition[] } | undefined)?.conditions ?? [];
const groupOf = (crd: JsonObject): unknown => (crd['spec'] as { group?: unknown } | undefined)?.group;
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

// Settled: its names are the accepted ones and it is established (kube's naming controller skips it).
const settled = (crd: JsonObject): boolean =>
  conditionsOf(crd).some((c) => c.type === 'Established' && c.status === 'True') &&
  same(requestedNames(crd), { ...requestedNames(crd), ...((crd['status'] as { acceptedNames?: JsonObject } | undefined)?.acceptedNames ?? {}) });

// The conditions with `next` set: the transition time moves only when the status does.
function withCondition(conditions: Condition[], next: CrdCondition, at: string): Condition[] {
  const old = conditions.find((c) => c.type === next.type);
  const updated = { ...next, lastTransitionTime: old && old.status === next.status && old.lastTransitionTime ? old.lastTransitionTime : at };
  return old ? conditions.map((c) => (c === old ? updated : c)) : [...conditions, updated];
}

/**
 * A storage listener that decides each new or changed CRD's names against the other CRDs of its
 * group and marks it NamesAccepted and Established (or not), with `acceptedNames` and
 * `storedVersions`, through the status subresource; a deleted CRD makes the others of its group be
 * decided again.
 *
 * @example
 * ```ts
 * storage.onChange(establishCustomResourceDefinitions(registry, scheduler, now, () => storedCrds()));
 * ```
 */
export function establishCustomResourceDefinitions(registry: Registry, scheduler: SchedulerLike, now: () => string, crds: () => JsonObject[]): (change: Change) => void {
  const decide = (name: string): void => {
    let current: JsonObject;
    try {
      current = parseStored(registry.get(customResourceDefinitionType, '', name));
    } catch {
      return; // deleted meanwhile
    }
    const meta = current['metadata'] as { annotations?: Record<string, string>; deletionTimestamp?: string } | undefined;
    if (settled(current) || meta?.deletionTimestamp || meta?.annotations?.[neverEstablishAnnotation] === 'true') return;
    const group = groupOf(current);
    const { acceptedNames, namesAccepted } = crdNaming(current, crds().filter((c) => groupOf(c) === group));
    const status = (current['status'] as JsonObject | undefined) ?? {};
    const conditions = conditionsOf(current);
    const established = establishedAfter(conditions.find((c) => c.type === 'Established') as CrdCondition | undefined, namesAccepted);
    const at = now();
    const spec = current['spec'] as { versions?: Array<{ name?: string; storage?: boolean }> };
    const storage = (spec.versions ?? []).filter((v) => v.storage === true).map((v) => v.name);
    const stored = Array.isArray(status['storedVersions']) ? (status['storedVersions'] as unknown[]) : [];
    const next = {
      ...status,
      conditions: withCondition(withCondition(conditions, namesAccepted, at), established, at),
      acceptedNames,
      storedVersions: [...stored, ...storage.filter((v) => !stored.includes(v))],
    };
    if (same(next, status)) return;
    try {
      inBackground(registry.update(customResourceDefinitionType, '', name, { ...current, status: next }, 'status'));
    } catch {
      // changed meanwhile (a conflict): the change that beat us is seen by this listener again
    }
  };
  return (change) => {
    if (change.resource.id !== customResourceDefinitionType.id) return;
    const crd = JSON.parse(change.obj.json) as JsonObject;
    const name = (crd['metadata'] as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string' || !definitionFromCrd(crd)) return;
    if (change.type === 'DELETED') {
      // Its names are free: the others of its group that did not get theirs are decided again.
      const others = crds().filter((c) => groupOf(c) === groupOf(crd) && !settled(c));
      for (const other of others) scheduler.schedule(() => decide((other['metadata'] as { name: string }).name));
      return;
    }
    if (!settled(crd)) scheduler.schedule(() => decide(name));
  };
}
