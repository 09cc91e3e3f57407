// What every namespace and every Pod get on a real cluster: kube-controller-manager's
// serviceaccounts-controller and root-ca-cert-publisher (the ServiceAccount `default` and the
// ConfigMap `kube-root-ca.crt` in each namespace, made again when deleted), and kube-apiserver's
// ServiceAccount admission plugin (a Pod runs as `default` unless it names one that exists, with the
// projected token volume mounted unless automount is off). Through @kubernetes/client-node.
import { afterEach, describe, expect, it } from '@jest/globals';
import { CoreV1Api, type V1ConfigMap, type V1Pod, type V1ServiceAccount } from '@kubernetes/client-node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';
import { findKubectl, kubectlRunner } from './kubectlRunner.js';
import { refusal } from '../support/refusal.js';

const TOKEN_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

const pod = (name: string, spec: Partial<NonNullable<V1Pod['spec']>> = {}): V1Pod => ({
  metadata: { name, namespace: 'shop' },
  spec: { containers: [{ name: 'app', image: 'app:1' }], ...spec },
});

describe("each namespace's ServiceAccount and CA ConfigMap", () => {
  let api: FakeApiServer;
  afterEach(() => api?.close());

  const defaultsOf = (ns: string) => ({
    account: api.get<V1ServiceAccount>('serviceaccounts', ns, 'default'),
    ca: api.get<V1ConfigMap>('configmaps', ns, 'kube-root-ca.crt'),
  });

  it('every namespace, those the server starts with and new ones, gets both; the CA is the server\'s', async () => {
    api = await startFakeApiServer({ serviceAccounts: true });
    const core = api.kubeConfig().makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'shop' } } });
    await waitFor(() => defaultsOf('shop').ca !== undefined && defaultsOf('shop').account !== undefined, 'shop\'s defaults');
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'shop']) {
      const { account, ca } = defaultsOf(ns);
      expect(account?.metadata?.name).toBe('default');
      expect(ca?.data).toEqual({ 'ca.crt': api.caCert });
      expect(ca?.metadata?.annotations?.['kubernetes.io/description']).toContain('verify the kube-apiserver');
    }
    const accounts = await core.listNamespacedServiceAccount({ namespace: 'shop' });
    expect(accounts.items.map((a) => a.metadata?.name)).toEqual(['default']);
  });

  it('deleted, they are made again; the CA changed by hand is put back', async () => {
    api = await startFakeApiServer({ serviceAccounts: true, namespaces: ['shop'] });
    const core = api.kubeConfig().makeApiClient(CoreV1Api);
    await waitFor(() => defaultsOf('shop').ca !== undefined, 'shop\'s CA');
    const firstUid = defaultsOf('shop').account?.metadata?.uid;
    await core.deleteNamespacedServiceAccount({ name: 'default', namespace: 'shop' });
    await core.deleteNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'shop' });
    await waitFor(() => (defaultsOf('shop').account?.metadata?.uid ?? firstUid) !== firstUid && defaultsOf('shop').ca !== undefined, 'both made again');
    const ca = await core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'shop' });
    await core.replaceNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'shop', body: { ...ca, data: { 'ca.crt': 'not a CA' } } });
    await waitFor(() => defaultsOf('shop').ca?.data?.['ca.crt'] === api.caCert, 'the CA put back');
  });

  it('a plain-HTTP server publishes a CA too; with the controllers off there are none', async () => {
    api = await startFakeApiServer({ serviceAccounts: true, http: true, namespaces: ['shop'] });
    await waitFor(() => defaultsOf('shop').ca !== undefined, 'shop\'s CA');
    expect(defaultsOf('shop').ca?.data?.['ca.crt']).toMatch(/^-----BEGIN CERTIFICATE-----/);
    await api.close();
    api = await startFakeApiServer({ serviceAccounts: true, namespaces: ['shop'], garbageCollection: 'off' });
    // A request's round trip: time enough for a scheduled controller, which would act at once.
    await api.kubeConfig().makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'other' } } });
    expect([defaultsOf('shop'), defaultsOf('other')]).toEqual([{ account: undefined, ca: undefined }, { account: undefined, ca: undefined }]);
  });
});

describe('the ServiceAccount admission plugin', () => {
  let api: FakeApiServer;
  afterEach(() => api?.close());

  async function core(): Promise<CoreV1Api> {
    api = await startFakeApiServer({ serviceAccounts: true, namespaces: ['shop'] });
    return api.kubeConfig().makeApiClient(CoreV1Api);
  }

  it('a Pod without a ServiceAccount runs as default, with the token volume mounted read-only in every container', async () => {
    const created = await (await core()).createNamespacedPod({ namespace: 'shop', body: pod('a', { initContainers: [{ name: 'init', image: 'init:1' }] }) });
    const spec = created.spec!;
    expect([spec.serviceAccountName, spec.serviceAccount]).toEqual(['default', 'default']);
    expect(spec.volumes).toHaveLength(1);
    const volume = spec.volumes![0]!;
    expect(volume.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(volume.projected).toEqual({
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    });
    for (const c of [...spec.initContainers!, ...spec.containers]) expect(c.volumeMounts).toEqual([{ name: volume.name, readOnly: true, mountPath: TOKEN_PATH }]);
  });

  it('automount off on the Pod, or on its ServiceAccount unless the Pod says otherwise: no volume', async () => {
    const client = await core();
    const noMount = await client.createNamespacedPod({ namespace: 'shop', body: pod('a', { automountServiceAccountToken: false }) });
    expect(noMount.spec?.volumes).toBeUndefined();
    await client.createNamespacedServiceAccount({ namespace: 'shop', body: { metadata: { name: 'quiet' }, automountServiceAccountToken: false } });
    const quiet = await client.createNamespacedPod({ namespace: 'shop', body: pod('b', { serviceAccountName: 'quiet' }) });
    expect([quiet.spec?.serviceAccountName, quiet.spec?.volumes]).toEqual(['quiet', undefined]);
    const asked = await client.createNamespacedPod({ namespace: 'shop', body: pod('c', { serviceAccountName: 'quiet', automountServiceAccountToken: true }) });
    expect(asked.spec?.volumes).toHaveLength(1);
  });

  it('a container that mounts something at the token path itself keeps it', async () => {
    const mine = { name: 'mine', mountPath: TOKEN_PATH };
    const created = await (await core()).createNamespacedPod({
      namespace: 'shop',
      body: pod('a', { volumes: [{ name: 'mine', emptyDir: {} }], containers: [{ name: 'app', image: 'app:1', volumeMounts: [mine] }] }),
    });
    expect(created.spec?.volumes?.map((v) => v.name)).toEqual(['mine']);
    expect(created.spec?.containers[0]?.volumeMounts).toEqual([mine]);
  });

  it('a ServiceAccount that does not exist is kube\'s 403, and nothing is stored', async () => {
    const client = await core();
    expect(await refusal(client.createNamespacedPod({ namespace: 'shop', body: pod('a', { serviceAccountName: 'builder' }) }))).toEqual({
      code: 403,
      message: 'pods "a" is forbidden: error looking up service account shop/builder: serviceaccount "builder" not found',
    });
    expect(api.get('pods', 'shop', 'a')).toBeUndefined();
    await client.createNamespacedServiceAccount({ namespace: 'shop', body: { metadata: { name: 'builder' } } });
    expect((await client.createNamespacedPod({ namespace: 'shop', body: pod('a', { serviceAccountName: 'builder' }) })).spec?.serviceAccountName).toBe('builder');
  });
});

describe('without the serviceAccounts option (the default, as envtest)', () => {
  it('no ServiceAccount or CA ConfigMap appears, and Pods are stored as written', async () => {
    const api = await startFakeApiServer({ namespaces: ['shop'] });
    try {
      const core = api.kubeConfig().makeApiClient(CoreV1Api);
      const created = await core.createNamespacedPod({ namespace: 'shop', body: pod('a', { serviceAccountName: 'builder' }) });
      expect([created.spec?.serviceAccountName, created.spec?.volumes]).toEqual(['builder', undefined]);
      expect((await core.listServiceAccountForAllNamespaces()).items).toEqual([]);
      expect((await core.listConfigMapForAllNamespaces()).items).toEqual([]);
    } finally {
      await api.close();
    }
  });
});

describe('kubectl sees them as on a cluster', () => {
  it('kubectl create namespace, then get serviceaccounts and configmaps there; kubectl run gets a Pod with the token mounted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxkube-kubectl-sa-'));
    const api = await startFakeApiServer({ serviceAccounts: true });
    try {
      await api.writeKubeConfig(join(dir, 'config'));
      const run = kubectlRunner(findKubectl(), join(dir, 'config'), join(dir, 'cache'));
      expect((await run('create', 'namespace', 'team-a')).stdout.trim()).toBe('namespace/team-a created');
      await waitFor(() => api.get('configmaps', 'team-a', 'kube-root-ca.crt') !== undefined && api.get('serviceaccounts', 'team-a', 'default') !== undefined, 'team-a\'s defaults');
      expect((await run('get', 'serviceaccounts', '-n', 'team-a', '-o', 'name')).stdout.trim()).toBe('serviceaccount/default');
      expect((await run('get', 'configmaps', '-n', 'team-a', '-o', 'name')).stdout.trim()).toBe('configmap/kube-root-ca.crt');
      expect((await run('run', 'web', '-n', 'team-a', '--image', 'nginx')).stdout.trim()).toBe('pod/web created');
      const spec = await run('get', 'pod', 'web', '-n', 'team-a', '-o', 'jsonpath={.spec.serviceAccountName} {.spec.containers[0].volumeMounts[0].mountPath}');
      expect(spec.stdout).toBe(`default ${TOKEN_PATH}`);
    } finally {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
