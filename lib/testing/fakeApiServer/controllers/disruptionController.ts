import { labelSelectorFromObject, type LabelSelectorObject } from '../../../labels/labelSelector.js';
import type { Registry } from '../registry/store.js';
import type { ResourceTypes } from '../registry/resourceTypes.js';
import type { JsonObject } from '../resources.js';
import type { Change } from '../storage/history.js';
import type { Storage } from '../storage/storage.js';
import { parseStored } from '../storage/storedObject.js';
import { inBackground } from './inBackground.js';

// kube-controller-manager's disruption controller, in the small (KK `pkg/controller/disruption`):
// a PodDisruptionBudget's status from the pods its selector matches: expectedPods, currentHealthy
// (Ready and not being deleted), desiredHealthy (minAvailable, or expected minus maxUnavailable;
// percentages of expectedPods rounded up), disruptionsAllowed, the DisruptionAllowed condition and
// observedGeneration, so that evictions (registry/eviction.ts) and `kubectl drain` work. Unlike
// kube, expectedPods is the number of matching pods (kube asks their controllers' scale).

const PDBS = 'poddisruptionbudgets.policy';
const PODS = 'pods';

/** The field manager of its writes, as kube's controller is named. */
export const DISRUPTION_MANAGER = 'disruption-controller';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

/** `intstr.GetScaledValueFromIntOrPercent(v, total, roundUp=true)`. */
function scaled(v: unknown, total: number): number {
  if (typeof v === 'number') return v;
  const m = typeof v === 'string' ? /^(\d+)%$/.exec(v) : null;
  return m ? Math.ceil((Number(m[1]) * total) / 100) : 0;
}

const isReady = (pod: JsonObject): boolean =>
  (Array.isArray(obj(pod.status).conditions) ? (obj(pod.status).conditions as JsonObject[]) : []).some((c) => c.type === 'Ready' && c.status === 'True');

/**
 * The status kube's disruption controller gives `pdb` over the namespace's `pods`; the previous
 * condition's lastTransitionTime is kept when its status did not change.
 *
 * @example
 * ```ts
 * disruptionStatus(pdb, pods, '2026-01-01T00:00:00Z').disruptionsAllowed; // 1
 * ```
 */
export function disruptionStatus(pdb: JsonObject, pods: ReadonlyArray<JsonObject>, now: string): JsonObject {
  const spec = obj(pdb.spec);
  const previous = obj(pdb.status);
  const selector = spec.selector;
  let matched: JsonObject[] = [];
  if (isObject(selector)) {
    try {
      const s = labelSelectorFromObject(selector as LabelSelectorObject);
      matched = pods.filter((p) => s.matches(obj(obj(p.metadata).labels) as { [k: string]: string }));
    } catch {
      matched = [];
    }
  }
  const live = new Set(matched.filter((p) => obj(p.metadata).deletionTimestamp === undefined).map((p) => String(obj(p.metadata).name)));
  // Evicted pods not yet gone still count as disrupted (and not healthy).
  const disruptedPods = Object.fromEntries(Object.entries(obj(previous.disruptedPods)).filter(([name]) => live.has(name)));
  const expectedPods = matched.length;
  const currentHealthy = matched.filter((p) => live.has(String(obj(p.metadata).name)) && isReady(p) && !(String(obj(p.metadata).name) in disruptedPods)).length;
  const desiredHealthy = spec.maxUnavailable !== undefined ? Math.max(0, expectedPods - scaled(spec.maxUnavailable, expectedPods)) : scaled(spec.minAvailable, expectedPods);
  const disruptionsAllowed = Math.max(0, currentHealthy - desiredHealthy);
  const allowed = disruptionsAllowed > 0 ? 'True' : 'False';
  const generation = obj(pdb.metadata).generation;
  const before = (Array.isArray(previous.conditions) ? (previous.conditions as JsonObject[]) : []).find((c) => c.type === 'DisruptionAllowed');
  const condition = {
    type: 'DisruptionAllowed',
    status: allowed,
    ...(typeof generation === 'number' ? { observedGeneration: generation } : {}),
    lastTransitionTime: before?.status === allowed && typeof before.lastTransitionTime === 'string' ? before.lastTransitionTime : now,
    reason: allowed === 'True' ? 'SufficientPods' : 'InsufficientPods',
    message: '',
  };
  return {
    ...(typeof generation === 'number' ? { observedGeneration: generation } : {}),
    ...(Object.keys(disruptedPods).length ? { disruptedPods } : {}),
    disruptionsAllowed,
    currentHealthy,
    desiredHealthy,
    expectedPods,
    conditions: [condition],
  };
}

/**
 * The disruption controller: `observe` gives the namespace a pod or PDB change concerns,
 * `process` writes each of its PDBs' status where it differs.
 */
export class DisruptionController {
  constructor(
    private readonly storage: Storage,
    private readonly types: ResourceTypes,
    private readonly registry: () => Registry,
  ) {}

  /** The namespace whose budgets `c` may change. */
  observe(c: Change): string | undefined {
    return c.resource.id === PDBS || c.resource.id === PODS ? c.obj.namespace : undefined;
  }

  /** One pass over the namespace's budgets. */
  process(namespace: string): void {
    const pdbType = this.types.resolve(PDBS);
    const budgets = [...this.storage.snapshot(pdbType, this.storage.resourceVersion, namespace)].map(parseStored);
    if (budgets.length === 0) return;
    const pods = [...this.storage.snapshot(this.types.resolve(PODS), this.storage.resourceVersion, namespace)].map(parseStored);
    const registry = this.registry();
    for (const pdb of budgets) {
      const status = disruptionStatus(pdb, pods, registry.timestamp());
      if (JSON.stringify(status) === JSON.stringify(pdb.status)) continue;
      const name = String(obj(pdb.metadata).name);
      inBackground(registry.update(pdbType, namespace, name, { ...pdb, status }, 'status', { owner: { manager: DISRUPTION_MANAGER } }));
    }
  }
}
