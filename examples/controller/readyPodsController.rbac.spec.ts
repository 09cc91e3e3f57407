// The ready-pods controller as its own ServiceAccount, bound to its ClusterRole, under enforced RBAC:
// with the role it does its job; with one verb removed the same run fails with kube's 403 in the
// controller's errors, as it would on a cluster (a test double that allows everything would not).
import { describe, expect, it } from '@jest/globals';
import { AppsV1Api, EventsV1Api, type V1ConfigMap, type V1Deployment, type V1PolicyRule } from '@kubernetes/client-node';
import { filter, firstValueFrom, interval, take, timeout } from 'rxjs';
import { ApiStatusError, clientNodeEventSink, eventRecorder, ReconcileError, sharedInformerFactory, type ControllerError } from 'rxkube';
import { startFakeApiServer } from 'rxkube/testing';
import { createDeployment, setReady } from './main.js';
import { READY_PODS_LABEL, childName, readyPodsController } from './readyPodsController.js';
import { SERVICE_ACCOUNT, readyPodsBinding, readyPodsClusterRole, readyPodsRules } from './readyPodsRole.js';

/** Resolves once `check` holds (polled every 10 ms), fails after 10 s: a bound, not a timing assertion. */
const until = (check: () => boolean) => firstValueFrom(interval(10).pipe(filter(check), take(1), timeout(10_000)));

/** The Status message of a 403 a write failed with: rxkube's ApiStatusError (apply), or client-node's ApiException (its typed clients). */
function forbiddenMessage(cause: unknown): string | undefined {
  if (cause instanceof ApiStatusError) return cause.statusCode === 403 ? cause.status.message : undefined;
  const e = cause as { code?: unknown; body?: unknown } | undefined;
  return e?.code === 403 && typeof e.body === 'string' ? (JSON.parse(e.body) as { message?: string }).message : undefined;
}

/** The 403s among the controller's errors: the Status messages of its failed reconciles' writes. */
const forbidden = (errors: ReadonlyArray<ControllerError>): string[] =>
  errors.flatMap((e) => (e instanceof ReconcileError && forbiddenMessage(e.cause) !== undefined ? [forbiddenMessage(e.cause)!] : []));

/** The role without `verb` on `resource`; a rule left with no verb goes (kube: `verbs must contain at least one value`). */
const without = (resource: string, verb: string): V1PolicyRule[] =>
  readyPodsRules
    .map((r) => (r.resources?.includes(resource) && r.verbs.includes(verb) ? { ...r, verbs: r.verbs.filter((v) => v !== verb) } : r))
    .filter((r) => r.verbs.length > 0);

/** Runs the controller as its ServiceAccount with `rules` until `done` holds; what it wrote and its errors. */
async function runAsServiceAccount(rules: V1PolicyRule[], done: (state: { label?: string; errors: ControllerError[] }) => boolean) {
  const api = await startFakeApiServer({ authorization: 'RBAC' });
  api.create('namespaces', { metadata: { name: 'shop' } });
  createDeployment(api, 'shop', 'web', 2);
  setReady(api, 'shop', 'web-5d8f-0', true);
  setReady(api, 'shop', 'web-5d8f-1', true);
  api.create('serviceaccounts', { metadata: { name: SERVICE_ACCOUNT, namespace: 'shop' } });
  api.create('clusterroles.rbac.authorization.k8s.io', readyPodsClusterRole(rules));
  api.create('clusterrolebindings.rbac.authorization.k8s.io', readyPodsBinding('shop'));
  const kc = api.kubeConfig({ serviceAccount: { namespace: 'shop', name: SERVICE_ACCOUNT } });
  const factory = sharedInformerFactory(kc);
  const recorder = eventRecorder({ sink: clientNodeEventSink(kc.makeApiClient(EventsV1Api)), reportingController: 'test', reportingInstance: '0' });
  const ctl = readyPodsController(factory, { kubeConfig: kc, apps: kc.makeApiClient(AppsV1Api), recorder });
  const errors: ControllerError[] = [];
  const sub = ctl.errors$.subscribe((e) => errors.push(e));
  const label = () => api.get<V1Deployment>('deployments.apps', 'shop', 'web')?.metadata?.labels?.[READY_PODS_LABEL];
  ctl.start();
  try {
    await until(() => done({ label: label(), errors }));
    return { label: label(), errors, configMap: api.get<V1ConfigMap>('configmaps', 'shop', childName('web')), requests: api.requests };
  } finally {
    sub.unsubscribe();
    await ctl.stop();
    recorder.close();
    await factory.shutdown();
    await api.close();
  }
}

describe('controller example under enforced RBAC, as its ServiceAccount', () => {
  it('with its ClusterRole it labels the Deployment and applies its ConfigMap; every request was the ServiceAccount', async () => {
    const run = await runAsServiceAccount(readyPodsRules, (s) => s.label === '2');
    expect(run.configMap?.data).toEqual({ ready: '2', selected: '2' });
    expect(forbidden(run.errors)).toEqual([]);
    const users = new Set(run.requests.filter((r) => r.authenticatedBy === 'serviceAccountToken').map((r) => r.user));
    expect([...users]).toEqual(['system:serviceaccount:shop:ready-pods']);
  });

  const SA = 'User "system:serviceaccount:shop:ready-pods"';
  it.each([
    ['configmaps', 'patch', `configmaps "web-ready-pods" is forbidden: ${SA} cannot patch resource "configmaps" in API group "" in the namespace "shop"`],
    ['deployments/status', 'patch', `deployments.apps "web" is forbidden: ${SA} cannot patch resource "deployments/status" in API group "apps" in the namespace "shop"`],
    ['deployments', 'patch', `deployments.apps "web" is forbidden: ${SA} cannot patch resource "deployments" in API group "apps" in the namespace "shop"`],
  ])('the same run without %s %s fails with kube 403 in the controller errors, and the label is never written', async (resource, verb, message) => {
    const run = await runAsServiceAccount(without(resource, verb), (s) => forbidden(s.errors).length > 0);
    expect(forbidden(run.errors)[0]).toBe(message);
    expect(run.label).toBeUndefined();
  });
});
