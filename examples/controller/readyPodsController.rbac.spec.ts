// The ready-pods controller as its own ServiceAccount, bound to the ClusterRole generated from its
// declarations (rbac.ts: permissionsOf, rbacObjects), under enforced RBAC: with that role it does
// its job; with one write verb removed the same run fails with kube's 403 in the controller's
// errors (or its event recorder's), as it would on a cluster. So the generated role is proven
// enough by the first test and each proven verb needed by the others.
import { describe, expect, it } from '@jest/globals';
import { AppsV1Api, EventsV1Api, type V1ConfigMap, type V1Deployment } from '@kubernetes/client-node';
import { filter, firstValueFrom, interval, take, timeout } from 'rxjs';
import {
  ApiStatusError,
  clientNodeEventSink,
  eventRecorder,
  EventRecordError,
  ReconcileError,
  sharedInformerFactory,
  type ControllerError,
  type PolicyRule,
  type RbacObject,
} from 'rxkube';
import { startFakeApiServer } from 'rxkube/testing';
import { createDeployment, setReady } from './main.js';
import { SERVICE_ACCOUNT, readyPodsRbac } from './rbac.js';
import { READY_PODS_LABEL, childName, readyPodsController } from './readyPodsController.js';

/** Resolves once `check` holds (polled every 10 ms), fails after 20 s: a bound, not a timing assertion. */
const until = (check: () => boolean) => firstValueFrom(interval(10).pipe(filter(check), take(1), timeout(20_000)));

/** The Status message of a 403: rxkube's ApiStatusError (apply), or client-node's ApiException (its typed clients). */
function forbiddenMessage(cause: unknown): string | undefined {
  if (cause instanceof ApiStatusError) return cause.statusCode === 403 ? cause.status.message : undefined;
  const e = cause as { code?: unknown; body?: unknown } | undefined;
  return e?.code === 403 && typeof e.body === 'string' ? (JSON.parse(e.body) as { message?: string }).message : undefined;
}

/** The 403s among the controller's errors (its failed reconciles' writes) and its recorder's (Events). */
const forbidden = (errors: ReadonlyArray<ControllerError | EventRecordError>): string[] =>
  errors.flatMap((e) => {
    const message = e instanceof ReconcileError || e instanceof EventRecordError ? forbiddenMessage(e.cause) : undefined;
    return message === undefined ? [] : [message];
  });

const generated = readyPodsRbac.objects();
const clusterRole = generated.find((o) => o.kind === 'ClusterRole')!;

/** The generated objects with `verb` on `resource` taken out of the ClusterRole (a rule naming other resources keeps them). */
const without = (resource: string, verb: string): ReadonlyArray<RbacObject> => {
  const rules = clusterRole.rules!.flatMap((r): PolicyRule[] => {
    if (!r.resources.includes(resource) || !r.verbs.includes(verb as PolicyRule['verbs'][number])) return [r];
    const others = r.resources.filter((x) => x !== resource);
    const verbs = r.verbs.filter((v) => v !== verb);
    return [...(others.length > 0 ? [{ ...r, resources: others }] : []), ...(verbs.length > 0 ? [{ ...r, resources: [resource], verbs }] : [])];
  });
  return generated.map((o) => (o === clusterRole ? { ...o, rules } : o));
};

const PLURAL: Record<RbacObject['kind'], string> = {
  ServiceAccount: 'serviceaccounts',
  ClusterRole: 'clusterroles.rbac.authorization.k8s.io',
  ClusterRoleBinding: 'clusterrolebindings.rbac.authorization.k8s.io',
  Role: 'roles.rbac.authorization.k8s.io',
  RoleBinding: 'rolebindings.rbac.authorization.k8s.io',
};

interface RunState {
  readonly label?: string;
  readonly errors: ReadonlyArray<ControllerError | EventRecordError>;
  /** The reasons of the Events the recorder wrote. */
  readonly events: ReadonlyArray<string>;
}

/** Runs the controller as its ServiceAccount with `objects` stored until `done` holds; what it wrote and its errors. */
async function runAsServiceAccount(objects: ReadonlyArray<RbacObject>, done: (state: RunState) => boolean) {
  const api = await startFakeApiServer({ authorization: 'RBAC' });
  api.create('namespaces', { metadata: { name: SERVICE_ACCOUNT.namespace } });
  createDeployment(api, 'shop', 'web', 2);
  setReady(api, 'shop', 'web-5d8f-0', true);
  setReady(api, 'shop', 'web-5d8f-1', true);
  for (const o of objects) api.create(PLURAL[o.kind], o);
  const kc = api.kubeConfig({ serviceAccount: SERVICE_ACCOUNT });
  const factory = sharedInformerFactory(kc);
  const recorder = eventRecorder({ sink: clientNodeEventSink(kc.makeApiClient(EventsV1Api)), reportingController: 'test', reportingInstance: '0' });
  const ctl = readyPodsController(factory, { kubeConfig: kc, apps: kc.makeApiClient(AppsV1Api), recorder });
  const errors: Array<ControllerError | EventRecordError> = [];
  const events: string[] = [];
  const subs = [
    ctl.errors$.subscribe((e) => errors.push(e)),
    recorder.errors$.subscribe((e) => errors.push(e)),
    recorder.written$.subscribe((e) => events.push(e.reason ?? '')),
  ];
  const label = () => api.get<V1Deployment>('deployments.apps', 'shop', 'web')?.metadata?.labels?.[READY_PODS_LABEL];
  ctl.start();
  try {
    await until(() => done({ label: label(), errors, events }));
    return { label: label(), errors, events, configMap: api.get<V1ConfigMap>('configmaps', 'shop', childName('web')), requests: api.requests };
  } finally {
    subs.forEach((s) => s.unsubscribe());
    await ctl.stop();
    recorder.close();
    await factory.shutdown();
    await api.close();
  }
}

describe('controller example under enforced RBAC, as its ServiceAccount with its generated role', () => {
  it('the generated ClusterRole is the informers\' list and watch and the declared writes, nothing hand-written', () => {
    expect(generated.map((o) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
      'ServiceAccount ready-pods/ready-pods',
      'ClusterRole /ready-pods',
      'ClusterRoleBinding /ready-pods',
    ]);
    expect(clusterRole.rules).toEqual([
      { apiGroups: [''], resources: ['configmaps'], verbs: ['list', 'watch', 'create', 'patch'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['list', 'watch', 'patch'] },
      { apiGroups: ['apps'], resources: ['deployments/status'], verbs: ['patch'] },
      { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['list', 'watch'] },
      { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
    ]);
  });

  it('with the generated role it labels the Deployment, applies its ConfigMap, records its Event; every request was the ServiceAccount', async () => {
    // Done, or a 403: a role missing a verb the controller needs fails here with kube's message.
    const run = await runAsServiceAccount(generated, (s) => (s.label === '2' && s.events.includes('ReadyPodsChanged')) || forbidden(s.errors).length > 0);
    expect(forbidden(run.errors)).toEqual([]);
    expect(run.configMap?.data).toEqual({ ready: '2', selected: '2' });
    const users = new Set(run.requests.filter((r) => r.authenticatedBy === 'serviceAccountToken').map((r) => r.user));
    expect([...users]).toEqual(['system:serviceaccount:ready-pods:ready-pods']);
  }, 60_000);

  const SA = 'User "system:serviceaccount:ready-pods:ready-pods"';
  it.each([
    ['deployments/status', 'patch', `deployments.apps "web" is forbidden: ${SA} cannot patch resource "deployments/status" in API group "apps" in the namespace "shop"`],
    ['configmaps', 'patch', `configmaps "web-ready-pods" is forbidden: ${SA} cannot patch resource "configmaps" in API group "" in the namespace "shop"`],
    ['deployments', 'patch', `deployments.apps "web" is forbidden: ${SA} cannot patch resource "deployments" in API group "apps" in the namespace "shop"`],
    // The ConfigMap's first apply creates it, which kube authorizes as a create too (RBAC gives no reason).
    ['configmaps', 'create', 'configmaps "web-ready-pods" is forbidden: '],
  ])('the generated role without %s %s: the reconcile fails with kube\'s 403 in the controller errors, and the label is never written', async (resource, verb, message) => {
    const run = await runAsServiceAccount(without(resource, verb), (s) => forbidden(s.errors).length > 0);
    expect(forbidden(run.errors)[0]).toBe(message);
    expect(run.label).toBeUndefined();
  }, 60_000);

  it('every write verb of the generated role is proven here, but the one this run cannot show', () => {
    const writes = clusterRole.rules!.flatMap((r) => r.resources.flatMap((res) => r.verbs.filter((v) => v !== 'list' && v !== 'watch').map((v) => `${res} ${v}`)));
    const proven = ['deployments/status patch', 'configmaps patch', 'deployments patch', 'configmaps create', 'events create']; // the cases below
    // events patch: a series' update, for a repeated Event within its window; this run repeats none.
    const unprovable = ['events patch'];
    expect(writes.sort()).toEqual([...proven, ...unprovable].sort());
  });

  it('the generated role without events create: the recorder fails with kube\'s 403, the reconcile itself succeeds', async () => {
    const run = await runAsServiceAccount(without('events', 'create'), (s) => forbidden(s.errors).length > 0);
    expect(forbidden(run.errors)).toEqual([`events.events.k8s.io is forbidden: ${SA} cannot create resource "events" in API group "events.k8s.io" in the namespace "shop"`]);
    // Its reconciles may fail otherwise (a 422 from the label's patch on a stale cache is retried), never with a 403.
    expect(forbidden(run.errors.filter((e) => e instanceof ReconcileError))).toEqual([]);
    expect(run.label).toBe('2');
  }, 60_000);
});
