// Proof that `kubectl apply --server-side` works against the fake API server's field ownership,
// conflicts and --force-conflicts included: the real kubectl binary ($KUBECTL, PATH, or
// scripts/ensure-kubectl.sh), HTTPS with the generated CA, kubectl's default validation (the
// server's /openapi/v3 and fieldValidation).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { findKubectl, kubectlRunner, type KubectlResult } from './kubectlRunner.js';


const deployment = (replicas: number, image: string, extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: ${replicas}
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
      - name: web
        image: ${image}
${extra}`;

describe('kubectl apply --server-side against the fake API server', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-kubectl-ssa-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    api = await startFakeApiServer();
    await api.writeKubeConfig(join(dir, 'config'));
  });
  afterEach(() => api.close());

  /** Runs kubectl on `manifest` (written to a file); resolves with exit code, stdout and stderr. */
  const kubectlApply = async (manifest: string, ...flags: string[]): Promise<KubectlResult> => {
    const file = join(dir, 'manifest.yaml');
    writeFileSync(file, manifest);
    return kubectlRunner(kubectl, join(dir, 'config'), join(dir, 'cache'))('apply', '--server-side', '-f', file, ...flags);
  };

  it('creates and re-applies as manager "kubectl"; a field dropped from the manifest is removed', async () => {
    const first = await kubectlApply(deployment(2, 'web:1', '      - name: sidecar\n        image: side:1\n'));
    expect(first).toMatchObject({ code: 0, stdout: 'deployment.apps/web serverside-applied\n' });
    const d = api.get<{ spec: { template: { spec: { containers: Array<{ name: string }> } } }; metadata: { managedFields: Array<{ manager: string; operation: string }> } }>('deployments.apps', 'default', 'web')!;
    expect(d.metadata.managedFields.map((e) => [e.manager, e.operation])).toEqual([['kubectl', 'Apply']]);
    expect(d.spec.template.spec.containers.map((c) => c.name)).toEqual(['web', 'sidecar']);
    const second = await kubectlApply(deployment(2, 'web:1'));
    expect(second.code).toBe(0);
    const after = api.get<{ spec: { template: { spec: { containers: Array<{ name: string }> } } } }>('deployments.apps', 'default', 'web')!;
    expect(after.spec.template.spec.containers.map((c) => c.name)).toEqual(['web']);
  });

  it('another manager changing kubectl\'s fields gets the conflict; --force-conflicts takes them', async () => {
    expect((await kubectlApply(deployment(2, 'web:1'))).code).toBe(0);
    const conflict = await kubectlApply(deployment(3, 'web:2'), '--field-manager=rollout');
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('Apply failed with 2 conflicts: conflicts with "kubectl":\n- .spec.replicas\n- .spec.template.spec.containers[name="web"].image');
    expect(conflict.stderr).toContain('Please review the fields above--they currently have other managers');
    expect(api.get<{ spec: { replicas: number } }>('deployments.apps', 'default', 'web')!.spec.replicas).toBe(2);
    const forced = await kubectlApply(deployment(3, 'web:2'), '--field-manager=rollout', '--force-conflicts');
    expect(forced).toMatchObject({ code: 0, stdout: 'deployment.apps/web serverside-applied\n' });
    const d = api.get<{ spec: { replicas: number }; metadata: { managedFields: Array<{ manager: string; fieldsV1: { 'f:spec'?: object } }> } }>('deployments.apps', 'default', 'web')!;
    expect(d.spec.replicas).toBe(3);
    const kubectlEntry = d.metadata.managedFields.find((e) => e.manager === 'kubectl')!;
    expect(JSON.stringify(kubectlEntry.fieldsV1)).not.toContain('f:replicas');
  });
});
