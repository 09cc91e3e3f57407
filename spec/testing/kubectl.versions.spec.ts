// CRD versions with a real kubectl ($KUBECTL, PATH, or scripts/ensure-kubectl.sh): `kubectl get
// <category>` finds the resources of a category through discovery, a deprecated version's Warning
// reaches the user, and a version asked by name is served converted (conversion None).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { findKubectl, kubectlRunner, runKubectl } from './kubectlRunner.js';

const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'backups.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'backups', singular: 'backup', kind: 'Backup', shortNames: ['bk'], categories: ['ops'] },
    versions: [
      { name: 'v1', served: true, storage: true, schema },
      { name: 'v1beta1', served: true, storage: false, deprecated: true, schema },
    ],
  },
};

describe('kubectl and CRD versions', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  const run = (...args: string[]) => runKubectl(kubectl, dir, ...args);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-kubectl-versions-'));
    api = await startFakeApiServer({ crds: [crd] });
    await api.writeKubeConfig(join(dir, 'config'));
    api.create('backups.example.com', { apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'nightly', namespace: 'default' }, spec: {} });
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('kubectl get <category> lists the custom resources in it', async () => {
    expect(await run('get', 'ops', '-o', 'name')).toBe('backup.example.com/nightly\n');
    expect(await run('get', 'bk', '-o', 'name')).toBe('backup.example.com/nightly\n');
  });

  it('a deprecated version asked by name: served converted, with kube’s warning on stderr', async () => {
    const r = await kubectlRunner(kubectl, join(dir, 'config'), join(dir, 'cache'))('get', 'backups.v1beta1.example.com', 'nightly', '-o', 'jsonpath={.apiVersion}');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('example.com/v1beta1');
    expect(r.stderr).toContain('Warning: example.com/v1beta1 Backup is deprecated; use example.com/v1 Backup');
  });
});
