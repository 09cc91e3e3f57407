// A real kubectl against the fake API server's authorization: `kubectl auth can-i` (yes in the
// default mode; no with RBAC on and a missing verb), `auth can-i --list`, `auth whoami`, and
// `kubectl create token`, whose token the server then authenticates as the ServiceAccount.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { findKubectl, kubectlRunner, type KubectlResult } from './kubectlRunner.js';

const RBAC = 'rbac.authorization.k8s.io';

describe('kubectl auth and create token', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-kubectl-auth-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => api?.close());

  /** kubectl with the kubeconfig of `token` (the server's default credential without one). */
  const as = async (name: string, o?: { token: string }): Promise<(...args: string[]) => Promise<KubectlResult>> => {
    await api.writeKubeConfig(join(dir, name), o);
    return kubectlRunner(kubectl, join(dir, name), join(dir, 'cache'));
  };

  it('kubectl auth can-i says yes in the default mode, for the admin and any user', async () => {
    api = await startFakeApiServer({ tokens: [{ token: 'admin-t', user: 'admin', groups: ['system:masters'] }, { token: 'dev-t', user: 'dev' }] });
    const admin = await as('admin');
    expect(await admin('auth', 'can-i', 'create', 'pods')).toEqual({ code: 0, stdout: 'yes\n', stderr: '' });
    // kubectl's typed client posts the review as protobuf.
    expect(api.requests.find((r) => r.resource === 'selfsubjectaccessreviews.authorization.k8s.io')).toMatchObject({ method: 'POST', contentType: 'application/vnd.kubernetes.protobuf' });
    const dev = await as('dev', { token: 'dev-t' });
    expect(await dev('auth', 'can-i', 'delete', 'deployments', '-n', 'prod')).toEqual({ code: 0, stdout: 'yes\n', stderr: '' });
  });

  it('kubectl auth can-i says no with RBAC on for a verb the role lacks, yes for one it has', async () => {
    api = await startFakeApiServer({ authorization: 'RBAC', tokens: [{ token: 'admin-t', user: 'admin', groups: ['system:masters'] }, { token: 'dev-t', user: 'dev' }] });
    api.create('namespaces', { metadata: { name: 'shop' } });
    api.create(`roles.${RBAC}`, { metadata: { name: 'pod-reader', namespace: 'shop' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }] });
    api.create(`rolebindings.${RBAC}`, { metadata: { name: 'dev-reads', namespace: 'shop' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'pod-reader' }, subjects: [{ kind: 'User', name: 'dev' }] });
    const dev = await as('dev', { token: 'dev-t' });
    expect(await dev('auth', 'can-i', 'list', 'pods', '-n', 'shop')).toEqual({ code: 0, stdout: 'yes\n', stderr: '' });
    const no = await dev('auth', 'can-i', 'delete', 'pods', '-n', 'shop');
    expect([no.code, no.stdout]).toEqual([1, 'no\n']);
    expect((await dev('auth', 'can-i', 'list', 'pods', '-n', 'default')).stdout).toBe('no\n');
    // The same user, refused by the server itself with kube's words.
    const refused = await dev('delete', 'pod', 'x', '-n', 'shop');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error from server (Forbidden): pods "x" is forbidden: User "dev" cannot delete resource "pods" in API group "" in the namespace "shop"');
    const list = await dev('auth', 'can-i', '--list', '-n', 'shop');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect((await (await as('admin'))('auth', 'can-i', 'delete', 'nodes')).stdout).toBe('yes\n');
  });

  it('kubectl create token: the server accepts the token as the ServiceAccount; kubectl auth whoami shows it', async () => {
    api = await startFakeApiServer({ authorization: 'RBAC' });
    api.create('namespaces', { metadata: { name: 'shop' } });
    api.create('serviceaccounts', { metadata: { name: 'app', namespace: 'shop' } });
    const admin = await as('admin');
    const created = await admin('create', 'token', 'app', '-n', 'shop', '--duration=20m');
    expect([created.code, created.stderr]).toEqual([0, '']);
    const token = created.stdout.trim();
    const app = await as('app', { token });
    const whoami = await app('auth', 'whoami');
    expect(whoami.code).toBe(0);
    expect(whoami.stdout).toMatch(/Username\s+system:serviceaccount:shop:app/);
    expect(whoami.stdout).toMatch(/Groups\s+\[system:serviceaccounts system:serviceaccounts:shop system:authenticated\]/);
    expect((await app('get', 'pods', '-n', 'shop')).stderr).toContain('User "system:serviceaccount:shop:app" cannot list resource "pods" in API group "" in the namespace "shop"');
    expect(api.requests.at(-1)).toMatchObject({ user: 'system:serviceaccount:shop:app', authenticatedBy: 'serviceAccountToken' });
    expect((await admin('create', 'token', 'nobody', '-n', 'shop')).stderr).toContain('serviceaccounts "nobody" not found');
  });
});
