// README's demo against a kind-style cluster: `rxkube-fake-apiserver --client-cert-auth
// --kubeconfig FILE` serves in client-certificate mode and writes a kubeconfig with a client
// certificate and key (as kind and kubeadm write them); `npm start -- --kubeconfig FILE` watches it.
// Both run from their TypeScript sources through tsx, as separate processes.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, TSX, startFakeApiServerBin } from '../testing/fakeApiServerBin.js';

const DEMO = join(process.cwd(), 'examples', 'demo', 'main.ts');

/** Runs a command to its end (bounded by jest's timeout); its exit code and output. */
function run(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const c = spawn(TSX, args);
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr.on('data', (d: Buffer) => (out += d.toString()));
    c.once('exit', (code) => resolve({ code, out }));
  });
}

describe('the demo against a kind-style kubeconfig (client certificates) of the fake API server bin', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-demo-cert-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--client-cert-auth --kubeconfig FILE: a certificate kubeconfig; `npm start -- --kubeconfig FILE` lists and watches through it', async () => {
    const file = join(dir, 'kind-config');
    const { child, url, exited } = await startFakeApiServerBin(['--client-cert-auth', '--kubeconfig', file, '--seed', 'pods=30']);
    try {
      const kc = JSON.parse(readFileSync(file, 'utf8'));
      expect(kc.clusters[0].cluster.server).toBe(url);
      const user = kc.users[0].user;
      expect(Object.keys(user).sort()).toEqual(['client-certificate-data', 'client-key-data']);
      const cert = new X509Certificate(Buffer.from(user['client-certificate-data'], 'base64'));
      expect(cert.subject).toBe('O=system:masters\nCN=admin');
      const demo = await run(['--tsconfig', 'tsconfig.spec.json', DEMO, '--kubeconfig', file, '--duration', '2']);
      expect(demo.code).toBe(0);
      expect(demo.out).toContain('cluster from kubeconfig (read-only)');
      expect(demo.out).toMatch(/store {8}30 pods in \d+ namespaces/);
      expect(demo.out).toContain('errors       0');
      // The credential stays in the file: nothing printed shows the key or certificate.
      expect(demo.out).not.toContain(user['client-key-data'].slice(0, 40));
      expect(demo.out).not.toContain(user['client-certificate-data'].slice(0, 40));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 120_000);

  it('--client-cert-auth with --http or --no-auth is refused (exit 2)', async () => {
    expect((await run([BIN, '--client-cert-auth', '--http'])).code).toBe(2);
    expect((await run([BIN, '--client-cert-auth', '--no-auth'])).code).toBe(2);
  }, 60_000);
});
