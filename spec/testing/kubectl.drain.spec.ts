// `kubectl drain` against the fake API server (a real kubectl: $KUBECTL, PATH, or
// scripts/ensure-kubectl.sh): evictions through pods/eviction, held by a PodDisruptionBudget whose
// status the test cluster's disruption controller keeps, then let through when the budget allows.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';
import { findKubectl, kubectlRunner } from './kubectlRunner.js';

describe('kubectl drain', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  const run = (...args: string[]) => kubectlRunner(kubectl, join(dir, 'config'), join(dir, 'cache'))(...args);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-kubectl-drain-'));
    api = await startFakeApiServer();
    await api.writeKubeConfig(join(dir, 'config'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is held by a PodDisruptionBudget that allows no disruption, and goes through once it allows them', async () => {
    api.create('nodes', { metadata: { name: 'node-1' } });
    for (const name of ['web-0', 'web-1']) {
      api.create('pods', { metadata: { name, namespace: 'default', labels: { app: 'web' } }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] } });
      api.updateStatus('pods', { metadata: { name, namespace: 'default' }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
    }
    api.create('poddisruptionbudgets.policy', { metadata: { name: 'web', namespace: 'default' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } } });
    await waitFor(() => api.get<{ status?: { observedGeneration?: number } }>('poddisruptionbudgets.policy', 'default', 'web')?.status?.observedGeneration === 1, 'the budget is processed');

    const held = await run('drain', 'node-1', '--force', '--timeout=3s');
    expect(held.code).not.toBe(0);
    expect(held.stderr).toContain("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(api.list('pods', 'default').items).toHaveLength(2);
    expect(api.get<{ spec?: { unschedulable?: boolean } }>('nodes', undefined, 'node-1')?.spec?.unschedulable).toBe(true);

    api.patch('poddisruptionbudgets.policy', 'default', 'web', { spec: { minAvailable: 0 } });
    await waitFor(() => api.get<{ status?: { disruptionsAllowed?: number } }>('poddisruptionbudgets.policy', 'default', 'web')?.status?.disruptionsAllowed === 2, 'two disruptions allowed');
    const drained = await run('drain', 'node-1', '--force', '--timeout=20s');
    expect(drained.stderr).not.toContain('error');
    expect(drained.code).toBe(0);
    expect(drained.stdout).toContain('node/node-1 drained');
    expect(api.list('pods', 'default').items).toEqual([]);
  });
});
