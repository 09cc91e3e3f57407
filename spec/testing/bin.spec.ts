// The rxkube-fake-apiserver bin, run from its TypeScript source through tsx (the build is checked in
// CI separately): prints `listening on URL`, writes a kubeconfig, seeds pods, serves until killed.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthorizationV1Api, KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { BIN, TSX, startFakeApiServerBin, BIN_START_TIMEOUT } from './fakeApiServerBin.js';

// A test that starts the bin has its start bound and 30 s of its own.
jest.setTimeout(BIN_START_TIMEOUT + 30_000);

describe('rxkube-fake-apiserver bin', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-bin-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--http --port 0 --seed pods=N --kubeconfig FILE: one line "listening on URL", N pods served, exits on SIGTERM', async () => {
    const file = join(dir, 'kubeconfig');
    const { child, url, exited } = await startFakeApiServerBin(['--http', '--port', '0', '--seed', 'pods=120', '--kubeconfig', file]);
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(JSON.parse(readFileSync(file, 'utf8')).clusters[0].cluster.server).toBe(url);
      const list = (await (await fetch(`${url}/api/v1/pods?limit=500`)).json()) as { items: Array<{ metadata: { namespace: string } }> };
      expect(list.items).toHaveLength(120);
      expect(new Set(list.items.map((p) => p.metadata.namespace)).size).toBe(50);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('HTTPS by default: the kubeconfig carries the CA and a token', async () => {
    const file = join(dir, 'kubeconfig-tls');
    const { child, url, exited } = await startFakeApiServerBin(['--kubeconfig', file]);
    try {
      expect(url).toMatch(/^https:\/\//);
      const kc = JSON.parse(readFileSync(file, 'utf8'));
      expect(kc.clusters[0].cluster['certificate-authority-data']).toBeTruthy();
      expect(kc.users[0].user.token).toBeTruthy();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('--authorization RBAC: kube bootstrap policy, the kubeconfig user is system:masters', async () => {
    const file = join(dir, 'kubeconfig-rbac');
    const { child, exited } = await startFakeApiServerBin(['--authorization', 'RBAC', '--kubeconfig', file]);
    try {
      const kc = new KubeConfig();
      kc.loadFromFile(file);
      const bindings = await kc.makeApiClient(RbacAuthorizationV1Api).listClusterRoleBinding();
      expect(bindings.items.map((b) => b.metadata?.name)).toContain('cluster-admin');
      const review = await kc.makeApiClient(AuthorizationV1Api).createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { verb: 'delete', resource: 'nodes' } } } });
      expect(review.status?.allowed).toBe(true);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('--help prints the usage; a bad flag exits 2', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const c = spawn(TSX, [BIN, ...args]);
        let out = '';
        c.stdout.on('data', (d: Buffer) => (out += d.toString()));
        c.stderr.on('data', (d: Buffer) => (out += d.toString()));
        c.once('exit', (code) => resolve({ code, out }));
      });
    const help = await run(['--help']);
    expect([help.code, help.out.startsWith('usage: rxkube-fake-apiserver')]).toEqual([0, true]);
    const bad = await run(['--seed', 'nodes=3']);
    expect(bad.code).toBe(2);
    const mode = await run(['--authorization', 'ABAC']);
    expect([mode.code, mode.out.split('\n')[0]]).toEqual([2, 'rxkube-fake-apiserver: --authorization wants AlwaysAllow or RBAC, got "ABAC"']);
    expect((await run(['--authorization', 'RBAC', '--no-auth'])).code).toBe(2);
  });
});
