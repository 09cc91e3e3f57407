// kubectl against the fake's deletion semantics (a real kubectl binary): `kubectl delete namespace`
// waits for the namespace controller and returns once it is gone; immortal namespaces are refused
// with kube's message; `kubectl delete deployment` cascades to its ReplicaSet and Pods.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeploymentChain, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { findKubectl, runKubectl } from './kubectlRunner.js';

describe('kubectl delete against the fake API server (garbage collection, namespace lifecycle)', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-kubectl-lifecycle-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    api = await startFakeApiServer({ namespaces: ['shop'] });
    await api.writeKubeConfig(join(dir, 'config'));
  });
  afterEach(() => api.close());
  const run = (...args: string[]) => runKubectl(kubectl, dir, ...args);

  it('kubectl delete namespace empties it and waits until it is gone', async () => {
    api.create('namespaces', { metadata: { name: 'team' } });
    api.create('configmaps', { metadata: { name: 'a', namespace: 'team', finalizers: [] } });
    const out = await run('delete', 'namespace', 'team');
    expect(out.trim()).toBe('namespace "team" deleted');
    expect(api.get('namespaces', undefined, 'team')).toBeUndefined();
    expect(api.list('configmaps', 'team').items).toEqual([]);
  });

  it('kubectl delete namespace default is refused with kube\'s message', async () => {
    const err = await run('delete', 'namespace', 'default').catch((e: { stderr?: string }) => e);
    expect((err as { stderr?: string }).stderr).toMatch(/Error from server \(Forbidden\): namespaces "default" is forbidden: this namespace may not be deleted/);
  });

  it('kubectl delete deployment cascades to its ReplicaSet and Pods (Background)', async () => {
    createDeploymentChain(api, { name: 'web', namespace: 'shop', replicas: 2 });
    const out = await run('delete', 'deployment', 'web', '-n', 'shop');
    expect(out.trim()).toBe('deployment.apps "web" deleted');
    expect(api.list('replicasets.apps', 'shop').items).toEqual([]);
    expect(api.list('pods', 'shop').items).toEqual([]);
  });
});
