// The tutorial's backup controller as its own ServiceAccount, with the RBAC rxkube-crd writes from
// rbac.ts (backupRbac.objects(), the same objects as deploy/backup-controller.rbac.yaml), under
// enforced RBAC: with it the controller does its whole job (finalizer, ConfigMap, status, cleanup);
// with one write verb removed it fails with kube's 403 in its errors$.
import { describe, expect, it } from '@jest/globals';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { ApiStatusError, ReconcileError, type ControllerError, type PolicyRule, type RbacObject } from 'rxkube';
import { startFakeApiServer, waitFor, type FakeApiServer } from 'rxkube/testing';
import { backups, GROUP, PLURAL, VERSION, type Backup } from './backup.js';
import { backupController, configMapName } from './backupController.js';
import { backupRbac } from './rbac.js';

// Longer than waitFor's 5 s default: the suite runs beside others on a shared, loaded machine.
const patiently = { timeout: 20_000 };
const generated = backupRbac.objects();
const clusterRole = generated.find((o) => o.kind === 'ClusterRole')!;
const serviceAccount = generated.find((o) => o.kind === 'ServiceAccount')!.metadata as { namespace: string; name: string };
const SA = `User "system:serviceaccount:${serviceAccount.namespace}:${serviceAccount.name}"`;

const PLURALS: Record<RbacObject['kind'], string> = {
  ServiceAccount: 'serviceaccounts',
  ClusterRole: 'clusterroles.rbac.authorization.k8s.io',
  ClusterRoleBinding: 'clusterrolebindings.rbac.authorization.k8s.io',
  Role: 'roles.rbac.authorization.k8s.io',
  RoleBinding: 'rolebindings.rbac.authorization.k8s.io',
};

/** The generated objects with `verb` on `resource` taken out of the ClusterRole. */
const without = (resource: string, verb: PolicyRule['verbs'][number]): ReadonlyArray<RbacObject> => {
  const rules = clusterRole.rules!.flatMap((r): PolicyRule[] => {
    if (!r.resources.includes(resource) || !r.verbs.includes(verb)) return [r];
    const others = r.resources.filter((x) => x !== resource);
    const verbs = r.verbs.filter((v) => v !== verb);
    return [...(others.length > 0 ? [{ ...r, resources: others }] : []), ...(verbs.length > 0 ? [{ ...r, resources: [resource], verbs }] : [])];
  });
  return generated.map((o) => (o === clusterRole ? { ...o, rules } : o));
};

/** The Status message of a 403 a reconcile failed with, through rxkube's errors or client-node's ApiException. */
function forbiddenMessage(cause: unknown): string | undefined {
  for (let e = cause, depth = 0; e !== undefined && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ApiStatusError) return e.statusCode === 403 ? e.status.message : undefined;
    const ex = e as { code?: unknown; body?: unknown };
    if (ex.code === 403 && typeof ex.body === 'string') return (JSON.parse(ex.body) as { message?: string }).message;
    if (typeof e !== 'object' || e === null) return undefined;
  }
  return undefined;
}
const forbidden = (errors: ReadonlyArray<ControllerError>): string[] =>
  errors.flatMap((e) => {
    const message = e instanceof ReconcileError ? forbiddenMessage(e.cause) : undefined;
    return message === undefined ? [] : [message];
  });

/** The server with the CRD, the generated RBAC objects stored, the controller running as its ServiceAccount. */
async function start(objects: ReadonlyArray<RbacObject>) {
  const api: FakeApiServer = await startFakeApiServer({ crds: [backups], authorization: 'RBAC' });
  api.create('namespaces', { metadata: { name: serviceAccount.namespace } });
  for (const o of objects) api.create(PLURALS[o.kind], o);
  const deleted: string[] = [];
  const ctl = backupController(api.kubeConfig({ serviceAccount }), { deleteAll: async (b) => void deleted.push(b) });
  const errors: ControllerError[] = [];
  const sub = ctl.errors$.subscribe((e) => errors.push(e));
  ctl.start();
  const admin = api.kubeConfig().makeApiClient(CustomObjectsApi); // the test's own hand: system:masters
  const stop = async () => {
    sub.unsubscribe();
    await ctl.stop();
    await api.close();
  };
  return { api, admin, errors, deleted, stop };
}

const nightly = (schedule = '0 3 * * *'): Backup => ({ apiVersion: `${GROUP}/${VERSION}`, kind: 'Backup', metadata: { name: 'nightly', namespace: 'default' }, spec: { schedule } });
const where = { group: GROUP, version: VERSION, plural: PLURAL, namespace: 'default' };

describe('the backup controller under enforced RBAC, as its ServiceAccount with its generated role', () => {
  it('with the generated role: finalizer, ConfigMap, status; deleting the Backup runs the cleanup; no 403', async () => {
    const run = await start(generated);
    try {
      await run.admin.createNamespacedCustomObject({ ...where, body: nightly() });
      // Its status written, or a 403: a role missing a verb the controller needs fails here with kube's message.
      await waitFor(() => forbidden(run.errors).length > 0 || run.api.get<Backup>('backups.example.com', 'default', 'nightly')?.status?.configMap, patiently);
      expect(forbidden(run.errors)).toEqual([]);
      const stored = run.api.get<Backup>('backups.example.com', 'default', 'nightly')!;
      expect(stored.status).toEqual({ configMap: configMapName(stored), observedGeneration: 1 });
      expect(run.api.get('configmaps', 'default', 'nightly-backup')).toBeDefined();
      await run.admin.deleteNamespacedCustomObject({ ...where, name: 'nightly' });
      await waitFor(() => run.api.get('backups.example.com', 'default', 'nightly') === undefined, { ...patiently, description: 'the finalizer removed and the Backup gone' });
      expect(run.deleted).toEqual(['default/nightly']);
      expect(forbidden(run.errors)).toEqual([]);
      const users = new Set(run.api.requests.filter((r) => r.authenticatedBy === 'serviceAccountToken').map((r) => r.user));
      expect([...users]).toEqual([`system:serviceaccount:${serviceAccount.namespace}:${serviceAccount.name}`]);
    } finally {
      await run.stop();
    }
  }, 90_000);

  it('every write verb of the generated role is proven here, but those the fake server cannot refuse or the controller cannot show', () => {
    const writes = clusterRole.rules!.flatMap((r) => r.resources.flatMap((res) => r.verbs.filter((v) => v !== 'list' && v !== 'watch').map((v) => `${res} ${v}`)));
    const proven = ['backups patch', 'configmaps create', 'backups/status patch', 'configmaps patch']; // the cases below
    // backups/finalizers update: OwnerReferencesPermissionEnforcement's, an admission plugin the fake server does not run.
    // events create, patch: the recorder is inside backupController, its errors$ only logged.
    const unprovable = ['backups/finalizers update', 'events create', 'events patch'];
    expect(writes.sort()).toEqual([...proven, ...unprovable].sort());
  });

  it.each([
    ['backups', 'patch' as const, `backups.example.com "nightly" is forbidden: ${SA} cannot patch resource "backups" in API group "example.com" in the namespace "default"`],
    ['configmaps', 'create' as const, `configmaps is forbidden: ${SA} cannot create resource "configmaps" in API group "" in the namespace "default"`],
    ['backups/status', 'patch' as const, `backups.example.com "nightly" is forbidden: ${SA} cannot patch resource "backups/status" in API group "example.com" in the namespace "default"`],
  ])('the generated role without %s %s: the reconcile fails with kube\'s 403 in errors$', async (resource, verb, message) => {
    const run = await start(without(resource, verb));
    try {
      await run.admin.createNamespacedCustomObject({ ...where, body: nightly() });
      await waitFor(() => forbidden(run.errors).length > 0 || undefined, { ...patiently, description: 'a 403 in errors$' });
      expect(forbidden(run.errors)[0]).toBe(message);
      expect(run.api.get<Backup>('backups.example.com', 'default', 'nightly')?.status).toBeUndefined();
    } finally {
      await run.stop();
    }
  }, 90_000);

  it('the generated role without configmaps patch: a changed schedule fails with kube\'s 403 in errors$', async () => {
    const run = await start(without('configmaps', 'patch'));
    try {
      await run.admin.createNamespacedCustomObject({ ...where, body: nightly() });
      await waitFor(() => run.api.get<Backup>('backups.example.com', 'default', 'nightly')?.status?.configMap, patiently);
      expect(forbidden(run.errors)).toEqual([]);
      await run.admin.patchNamespacedCustomObject(
        { ...where, name: 'nightly', body: [{ op: 'replace', path: '/spec/schedule', value: '0 4 * * *' }] },
      );
      await waitFor(() => forbidden(run.errors).length > 0 || undefined, { ...patiently, description: 'a 403 in errors$' });
      expect(forbidden(run.errors)[0]).toBe(`configmaps "nightly-backup" is forbidden: ${SA} cannot patch resource "configmaps" in API group "" in the namespace "default"`);
    } finally {
      await run.stop();
    }
  }, 90_000);
});
