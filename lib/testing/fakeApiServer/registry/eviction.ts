import { labelSelectorFromObject, type LabelSelectorObject } from '../../../labels/labelSelector.js';
import { andThen } from '../admission/attributes.js';
import type { JsonObject } from '../resources.js';
import { badRequest, failure, notFound, StatusError } from '../status.js';
import type { Subresource } from './strategy.js';
import type { SubresourceAction, SubresourceHost } from './subresourceAction.js';

// `pods/eviction` (PIPELINE.md §7; KK `pkg/registry/core/pod/storage/eviction.go`): a POST of a
// policy/v1 Eviction deletes the pod unless that would break its PodDisruptionBudget, whose status
// (written by the test cluster's disruption controller, controllers/disruptionController.ts) says
// how many disruptions it allows. Each successful eviction spends one and records the pod.

const PODS = 'pods';
const PDBS = 'poddisruptionbudgets.policy';
/** kube's `MaxDisruptedPodSize`. */
const MAX_DISRUPTED_PODS = 2000;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

function tooManyRequests(message: string, cause: string, retryAfterSeconds?: number): StatusError {
  return new StatusError(
    failure(429, 'TooManyRequests', message, { ...(retryAfterSeconds ? { retryAfterSeconds } : {}), causes: [{ reason: 'DisruptionBudget', message: cause }] }),
  );
}

const forbiddenPdb = (pdb: string, why: string): StatusError =>
  new StatusError(failure(403, 'Forbidden', `poddisruptionbudget.policy "${pdb}" is forbidden: ${why}`, { name: pdb, group: 'policy', kind: 'poddisruptionbudget' }));

/** The Eviction's checks: its kind, and its name the URL's. */
function evictionOf(body: unknown, name: string): JsonObject {
  if (!isObject(body)) throw badRequest('the body of the request is not a JSON object');
  if (body.kind !== undefined && body.kind !== 'Eviction') throw badRequest(`${String(body.kind)} in version "v1" cannot be handled as a Eviction: the kind does not match the resource`);
  if (body.apiVersion !== undefined && body.apiVersion !== 'policy/v1' && body.apiVersion !== 'policy/v1beta1') {
    throw badRequest(`the API version in the data (${String(body.apiVersion)}) does not match the expected API version (policy/v1)`);
  }
  if (obj(body.metadata).name !== name) throw badRequest('name in URL does not match name in Eviction object');
  return body;
}

/** The PDBs whose non-empty selector matches the pod's labels. */
function budgetsOf(host: SubresourceHost, pod: JsonObject, namespace: string): JsonObject[] {
  const labels = obj(obj(pod.metadata).labels) as { [k: string]: string };
  return host.listed(PDBS, namespace).filter((pdb) => {
    const selector = obj(pdb.spec).selector;
    if (!isObject(selector) || Object.keys(selector).length === 0) return false;
    try {
      return labelSelectorFromObject(selector as LabelSelectorObject).matches(labels);
    } catch {
      return false;
    }
  });
}

const isReady = (pod: JsonObject): boolean =>
  (Array.isArray(obj(pod.status).conditions) ? (obj(pod.status).conditions as JsonObject[]) : []).some((c) => c.type === 'Ready' && c.status === 'True');

/** Where the budget stands; undefined: evicting the pod spends nothing. Throws kube's refusal. */
function spend(pdb: JsonObject, pod: JsonObject, podName: string, now: string): JsonObject | undefined {
  const meta = obj(pdb.metadata);
  const pdbName = String(meta.name);
  const status = obj(pdb.status);
  const generation = typeof meta.generation === 'number' ? meta.generation : 0;
  if (typeof status.observedGeneration !== 'number' || status.observedGeneration < generation) {
    throw tooManyRequests('Cannot evict pod as it would violate the pod\'s disruption budget.', `The disruption budget ${pdbName} is still being processed by the server.`, 10);
  }
  const allowed = typeof status.disruptionsAllowed === 'number' ? status.disruptionsAllowed : 0;
  const current = typeof status.currentHealthy === 'number' ? status.currentHealthy : 0;
  const desired = typeof status.desiredHealthy === 'number' ? status.desiredHealthy : 0;
  // An unready pod while the budget is met takes nothing from it (IfHealthyBudget).
  if (!isReady(pod) && current >= desired && desired > 0) return undefined;
  if (allowed < 0) throw forbiddenPdb(pdbName, 'pdb disruptions allowed is negative');
  const disrupted = obj(status.disruptedPods);
  if (Object.keys(disrupted).length > MAX_DISRUPTED_PODS) throw forbiddenPdb(pdbName, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  if (allowed === 0) {
    throw tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", `The disruption budget ${pdbName} needs ${desired} healthy pods and has ${current} currently`);
  }
  return { ...pdb, status: { ...status, disruptionsAllowed: allowed - 1, disruptedPods: { ...disrupted, [podName]: now } } };
}

/** kube's EvictionREST.Create. */
const evict: SubresourceAction = (host, namespace, name, body) => {
  const eviction = evictionOf(body, name);
  const pod = host.stored(PODS, namespace, name);
  if (!pod) throw notFound({ plural: 'pods', group: '' }, name);
  const deleteOptions = isObject(eviction.deleteOptions) ? eviction.deleteOptions : undefined;
  const remove = () => andThen(host.remove(PODS, namespace, name, deleteOptions), () => ({ code: 201, answer: SUCCESS }));
  const phase = obj(pod.status).phase;
  // Pods that are done, not yet running or already going are deleted without a budget check.
  if (phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || obj(pod.metadata).deletionTimestamp !== undefined) return remove();
  const budgets = budgetsOf(host, pod, namespace);
  if (budgets.length > 1) throw new StatusError(failure(500, '', 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.'));
  if (budgets.length === 0) return remove();
  const spent = spend(budgets[0], pod, name, host.timestamp());
  if (!spent || host.dryRun) return remove();
  return andThen(host.writeStatus(PDBS, spent), remove);
};

/**
 * The `pods/eviction` subresource: POST a policy/v1 Eviction.
 *
 * @example
 * ```ts
 * const pods = { subresources: { eviction: evictionSubresource } };
 * ```
 */
export const evictionSubresource: Subresource = Object.freeze({ verbs: ['create'] as const, writes: [], kind: { group: 'policy', version: 'v1', kind: 'Eviction' }, action: evict });
