// Proof that kubectl accepts the fake API server: real kubectl binary, HTTPS with the generated CA,
// bearer token, discovery cached in a temp dir. kubectl comes from $KUBECTL or PATH
// or else scripts/ensure-kubectl.sh (Debian's kubernetes-client unpacked into .cache), so that
// `npm test` passes on a fresh machine; these tests FAIL, not skip, when none can be had.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { podFixture, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { findKubectl } from './kubectlRunner.js';

const execFileP = promisify(execFile);

describe('kubectl against the fake API server', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-kubectl-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    api = await startFakeApiServer();
    await api.writeKubeConfig(join(dir, 'config'));
    api.create('pods', { metadata: { name: 'alpha', namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    api.create('pods', { metadata: { name: 'beta', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    api.create('pods', { metadata: { name: 'gamma', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  });
  afterEach(() => api.close());

  const args = (...a: string[]) => ['--kubeconfig', join(dir, 'config'), '--cache-dir', join(dir, 'cache'), '--request-timeout=20s', ...a];
  const run = async (...a: string[]): Promise<string> => {
    if (!kubectl) throw new Error('no kubectl: set KUBECTL or put kubectl on PATH (scripts/ensure-kubectl.sh fetches one)');
    // Async: the server runs in this process, a blocking exec would starve it.
    const { stdout } = await execFileP(kubectl, args(...a), { timeout: 30000, encoding: 'utf8' });
    return stdout;
  };

  it('a kubectl binary is available (KUBECTL, PATH or scripts/ensure-kubectl.sh)', () => {
    expect(kubectl).toBeDefined();
  });

  it('kubectl get lists the pods with the server’s Table columns (kube’s pod printer)', async () => {
    const out = await run('get', 'pods', '-n', 'default');
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('kubectl get -o json prints the List with the objects as stored', async () => {
    const out = JSON.parse(await run('get', 'pods', '-n', 'default', '-o', 'json'));
    expect(out.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(['alpha', 'beta', 'gamma']);
    expect(out.items[0].metadata.uid).toBe(api.get('pods', 'default', 'alpha')!.metadata.uid);
  });

  it('kubectl get --chunk-size=2 pages with limit/continue and prints every pod', async () => {
    const out = await run('get', 'pods', '-n', 'default', '--chunk-size=2', '-o', 'name');
    expect(out.trim().split('\n')).toEqual(['pod/alpha', 'pod/beta', 'pod/gamma']);
    const lists = api.requests.filter((r) => r.verb === 'list' && r.resource === 'pods');
    expect(lists.map((r) => [r.query.limit, Boolean(r.query.continue)])).toEqual([
      ['2', false],
      ['2', true],
    ]);
  });

  it('kubectl get -w sees a change made meanwhile', async () => {
    if (!kubectl) throw new Error('no kubectl');
    const child = spawn(kubectl, args('get', 'pods', '-n', 'default', '-w', '-o', 'name'), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const seen = (s: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`kubectl get -w never printed ${s}; got: ${out}`)), 20000);
        const check = () => {
          if (out.includes(s)) {
            clearTimeout(timer);
            child.stdout.off('data', check);
            resolve();
          }
        };
        child.stdout.on('data', check);
        check();
      });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (out += d));
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await seen('pod/gamma');
      await api.waitForWatches(1, 'pods');
      api.create('pods', podFixture({ name: 'delta' }));
      await seen('pod/delta');
      expect(out.trim().split('\n')).toEqual(['pod/alpha', 'pod/beta', 'pod/gamma', 'pod/delta']);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('kubectl create --validate=false -f creates the object', async () => {
    const file = join(dir, 'cm.json');
    writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-file', namespace: 'default' }, data: { k: 'v' } }));
    const out = await run('create', '--validate=false', '-f', file);
    expect(out.trim()).toBe('configmap/from-file created');
    expect(api.get('configmaps', 'default', 'from-file')?.data).toEqual({ k: 'v' });
  });

  it('kubectl label patches the labels', async () => {
    const out = await run('label', 'pods', 'beta', '-n', 'default', 'tier=backend');
    expect(out.trim()).toBe('pod/beta labeled');
    expect(api.get('pods', 'default', 'beta')?.metadata.labels).toEqual({ tier: 'backend' });
    expect(api.requests.filter((r) => r.verb === 'patch').map((r) => r.contentType)).toEqual(['application/merge-patch+json']);
  });

  it('kubectl delete deletes and waits for the object to be gone', async () => {
    const out = await run('delete', 'pod', 'alpha', '-n', 'default');
    expect(out.trim()).toBe('pod "alpha" deleted');
    expect(api.get('pods', 'default', 'alpha')).toBeUndefined();
  });

  it('kubectl get leases finds coordination.k8s.io/v1 Leases through discovery, and -o json shows the holder', async () => {
    api.create('leases.coordination.k8s.io', {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'my-controller', namespace: 'kube-system' },
      spec: { holderIdentity: 'replica-a', leaseDurationSeconds: 15, leaseTransitions: 2 },
    });
    const names = await run('get', 'leases', '-n', 'kube-system', '-o', 'name');
    expect(names.trim()).toBe('lease.coordination.k8s.io/my-controller');
    const lease = JSON.parse(await run('get', 'lease', 'my-controller', '-n', 'kube-system', '-o', 'json'));
    expect(lease.spec).toEqual({ holderIdentity: 'replica-a', leaseDurationSeconds: 15, leaseTransitions: 2 });
  });

  it('kubectl against a plain-HTTP server (no credentials sent, auth off by default)', async () => {
    const plain = await startFakeApiServer({ http: true });
    try {
      plain.create('configmaps', { metadata: { name: 'plain', namespace: 'default' } });
      const file = join(dir, 'config-http');
      await plain.writeKubeConfig(file);
      if (!kubectl) throw new Error('no kubectl');
      const { stdout } = await execFileP(kubectl, ['--kubeconfig', file, '--cache-dir', join(dir, 'cache-http'), 'get', 'configmaps', '-o', 'name'], { timeout: 30000, encoding: 'utf8' });
      expect(stdout.trim()).toBe('configmap/plain');
    } finally {
      await plain.close();
    }
  });
});
