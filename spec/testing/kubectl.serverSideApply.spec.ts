// Proof that `kubectl apply --server-side` works against the fake API server's field ownership,
// conflicts and --force-conflicts included: the real kubectl binary ($KUBECTL, PATH, or
// scripts/ensure-kubectl.sh), HTTPS with the generated CA. --validate=false: kubectl's default
// validation needs /openapi/v3, which this server does not serve yet.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { execFile, execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

const execFileP = promisify(execFile);

function findKubectl(): string | undefined {
  const candidates = [process.env.KUBECTL, ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'kubectl'))];
  for (const c of candidates) {
    if (!c) continue;
    try {
      accessSync(c, constants.X_OK);
      return c;
    } catch {
      // next candidate
    }
  }
  try {
    const out = execFileSync('bash', [join(process.cwd(), 'scripts', 'ensure-kubectl.sh')], { encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'inherit'] });
    return out.trim().split('\n').pop() || undefined;
  } catch {
    return undefined;
  }
}

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
  const kubectlApply = async (manifest: string, ...flags: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    if (!kubectl) throw new Error('no kubectl: set KUBECTL or put kubectl on PATH (scripts/ensure-kubectl.sh fetches one)');
    const file = join(dir, 'manifest.yaml');
    writeFileSync(file, manifest);
    const args = ['--kubeconfig', join(dir, 'config'), '--cache-dir', join(dir, 'cache'), '--request-timeout=20s', 'apply', '--server-side', '--validate=false', '-f', file, ...flags];
    try {
      const { stdout, stderr } = await execFileP(kubectl, args, { timeout: 30000, encoding: 'utf8' });
      return { code: 0, stdout, stderr };
    } catch (e) {
      const err = e as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof err.code === 'number' ? err.code : -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
    }
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
