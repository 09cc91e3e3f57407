// `kubectl scale` against the fake API server (a real kubectl: $KUBECTL, PATH, or
// scripts/ensure-kubectl.sh): a Deployment and a custom resource whose CRD has subresources.scale.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { scaledCrd } from './fixtures/scaledCrd.js';
import { findKubectl, runKubectl } from './kubectlRunner.js';

describe('kubectl scale', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  const run = (...args: string[]) => runKubectl(kubectl, dir, ...args);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-kubectl-scale-'));
    api = await startFakeApiServer();
    await api.writeKubeConfig(join(dir, 'config'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('scales a Deployment (and --current-replicas is a precondition)', async () => {
    api.create('deployments.apps', {
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    expect(await run('scale', 'deployment/web', '--replicas=4')).toBe('deployment.apps/web scaled\n');
    expect(api.get('deployments.apps', 'default', 'web')).toMatchObject({ spec: { replicas: 4 }, metadata: { generation: 2 } });
    await expect(run('scale', 'deployment/web', '--current-replicas=2', '--replicas=1')).rejects.toMatchObject({ stderr: expect.stringContaining('Expected replicas to be 2, was 4') });
    expect(api.get('deployments.apps', 'default', 'web')).toMatchObject({ spec: { replicas: 4 } });
  });

  it('scales a custom resource through its CRD’s scale paths', async () => {
    api.create('customresourcedefinitions.apiextensions.k8s.io', scaledCrd);
    await run('wait', '--for=condition=Established', 'crd/pools.example.com', '--timeout=20s');
    api.create('pools.example.com', { apiVersion: 'example.com/v1', kind: 'Pool', metadata: { name: 'p', namespace: 'default' }, spec: { size: 1 } });
    expect(await run('scale', 'pool/p', '--replicas=3')).toBe('pool.example.com/p scaled\n');
    expect(api.get('pools.example.com', 'default', 'p')).toMatchObject({ spec: { size: 3 } });
  });
});
