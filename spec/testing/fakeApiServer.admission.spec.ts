import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ApiException, CoreV1Api, type V1ConfigMap } from '@kubernetes/client-node';
import { AsyncAdmissionError, startFakeApiServer, type AdmissionAttributes, type FakeApiServer } from '../../lib/testing/index.js';
import { raw } from './rawClient.js';

// The admission chain (ADMISSION.md §1): in-process plugins registered on a running server, in
// kube's order (NamespaceLifecycle first, then policies, then webhooks; mutating before the
// schema and strategy, validating after), with the attributes kube gives, through client-node.

type Labels = { [k: string]: string };

async function failure(p: Promise<unknown>): Promise<{ code: number; message: string; reason: string }> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof ApiException)) throw e;
    const status = JSON.parse(String(e.body)) as { message: string; reason: string };
    return { code: e.code, message: status.message, reason: status.reason };
  }
  throw new Error('the write succeeded');
}

describe('fake API server: admission plugins', () => {
  let api: FakeApiServer;
  let core: CoreV1Api;
  beforeEach(async () => {
    api = await startFakeApiServer();
    core = api.kubeConfig().makeApiClient(CoreV1Api);
  });
  afterEach(() => api.close());

  const configMap = (name: string, labels: Labels = {}) => ({ metadata: { name, labels }, data: { a: '1' } });

  it('a mutating plugin changes what is stored; it sees kube\'s attributes (CREATE, kinds, the user, no name for generateName)', async () => {
    const seen: AdmissionAttributes[] = [];
    const off = api.admission.register({
      name: 'team-label',
      admit: (a) => {
        seen.push({ ...a, object: a.object && structuredClone(a.object) });
        const meta = a.object!.metadata as { labels?: Labels };
        meta.labels = { ...meta.labels, team: 'a' };
      },
    });
    const cm = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { generateName: 'gen-' }, data: { a: '1' } } });
    expect(cm.metadata?.labels).toEqual({ team: 'a' });
    expect(api.get<V1ConfigMap>('configmaps', 'default', cm.metadata!.name!)?.metadata?.labels).toEqual({ team: 'a' });
    expect(seen[0]).toMatchObject({
      operation: 'CREATE',
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      subResource: '',
      name: '',
      namespace: 'default',
      oldObject: null,
      // kubeConfig()'s client certificate is kind's admin: O=system:masters.
      userInfo: { username: 'admin', groups: ['system:masters', 'system:authenticated'] },
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    });
    // An update carries the stored object as oldObject; removing the plugin takes it out of the chain.
    await core.replaceNamespacedConfigMap({ name: cm.metadata!.name!, namespace: 'default', body: { ...cm, data: { a: '2' } } });
    expect(seen[1]).toMatchObject({ operation: 'UPDATE', name: cm.metadata!.name, oldObject: { data: { a: '1' } }, object: { data: { a: '2' } } });
    off();
    const plain = await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('plain') });
    expect(plain.metadata?.labels).toEqual({});
    expect(api.admission.plugins()).toEqual([
      { name: 'NamespaceLifecycle', stage: 'builtIn' },
      { name: 'RBACEscalation', stage: 'builtIn' },
    ]);
  });

  it('a validating plugin refuses with the Status it answers (403 Forbidden by default); nothing is stored, in a dry run too', async () => {
    const names: string[] = [];
    api.admission.register({
      name: 'no-red',
      validate: (a) => {
        names.push(a.name);
        const labels = ((a.object?.metadata as { labels?: Labels } | undefined)?.labels ?? {}) as Labels;
        return labels.color === 'red' ? { allowed: false, status: { message: 'configmaps may not be red' } } : undefined;
      },
    });
    const rv = api.resourceVersion;
    const denied = await failure(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('r', { color: 'red' }) }));
    expect(denied).toEqual({ code: 403, reason: 'Forbidden', message: 'configmaps may not be red' });
    const dry = await failure(core.createNamespacedConfigMap({ namespace: 'default', dryRun: 'All', body: configMap('r', { color: 'red' }) }));
    expect(dry.code).toBe(403);
    expect(api.get('configmaps', 'default', 'r')).toBeUndefined();
    expect(api.resourceVersion).toBe(rv);
    // A validating plugin sees the finished object: a generated name is there.
    const ok = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { generateName: 'g-' }, data: {} } });
    expect(names.at(-1)).toBe(ok.metadata?.name);
  });

  it('a plugin that throws is a 500 naming it, and the server goes on; its code and reason are kept when it answers them', async () => {
    const off = api.admission.register({
      name: 'broken',
      admit: () => {
        throw new Error('boom');
      },
    });
    const broken = await failure(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('b') }));
    expect(broken).toEqual({ code: 500, reason: 'InternalError', message: 'Internal error occurred: admission plugin "broken" failed: boom' });
    off();
    api.admission.register({ name: 'quota', validate: () => ({ allowed: false, status: { code: 422, reason: 'Invalid', message: 'over quota' } }) }, { stage: 'policy' });
    expect(await failure(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('q') }))).toEqual({ code: 422, reason: 'Invalid', message: 'over quota' });
  });

  it('DELETE is admitted with the stored object as oldObject; a denial keeps the object', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('keep') });
    const seen: AdmissionAttributes[] = [];
    api.admission.register({
      name: 'keeper',
      validate: (a) => {
        seen.push(a);
        return a.operation === 'DELETE' ? { allowed: false, status: { message: 'kept' } } : undefined;
      },
    });
    expect((await failure(core.deleteNamespacedConfigMap({ name: 'keep', namespace: 'default' }))).message).toBe('kept');
    expect(seen[0]).toMatchObject({ operation: 'DELETE', object: null, oldObject: { metadata: { name: 'keep' } }, options: { kind: 'DeleteOptions' } });
    expect(api.get('configmaps', 'default', 'keep')).toBeDefined();
  });

  it('kube\'s order: mutating policies before mutating webhooks, all mutation before validation; a plugin asking for it runs again after a later change', async () => {
    const order: string[] = [];
    const stamp = (name: string) => (a: AdmissionAttributes) => {
      order.push(name);
      const meta = a.object!.metadata as { annotations?: Labels };
      meta.annotations = { ...meta.annotations, [`${name}.example.com/seen`]: String(Object.keys(meta.annotations ?? {}).length) };
    };
    api.admission.register({ name: 'validating-webhook', validate: () => void order.push('validating-webhook') });
    api.admission.register({ name: 'webhook', admit: stamp('webhook') });
    api.admission.register({ name: 'validating-policy', validate: () => void order.push('validating-policy') }, { stage: 'policy' });
    api.admission.register({ name: 'policy', admit: stamp('policy'), reinvocationPolicy: 'IfNeeded' }, { stage: 'policy' });
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('o') });
    // policy, then webhook (which changed the object after it), so policy once more; then validation.
    expect(order).toEqual(['policy', 'webhook', 'policy', 'validating-policy', 'validating-webhook']);
    // The built-ins first: NamespaceLifecycle and the RBAC escalation check of role and binding writes.
    expect(api.admission.plugins().map((p) => p.name)).toEqual(['NamespaceLifecycle', 'RBACEscalation', 'validating-policy', 'policy', 'validating-webhook', 'webhook']);
  });

  it('NamespaceLifecycle comes first: a create into a missing namespace is kube\'s 404 before any plugin runs', async () => {
    const strict = await startFakeApiServer({ autoCreateNamespaces: false });
    try {
      let called = 0;
      strict.admission.register({ name: 'counter', admit: () => void called++, validate: () => ({ allowed: false, status: { message: 'never' } }) });
      const c = strict.kubeConfig().makeApiClient(CoreV1Api);
      const r = await failure(c.createNamespacedConfigMap({ namespace: 'nope', body: configMap('x') }));
      expect(r).toEqual({ code: 404, reason: 'NotFound', message: 'namespaces "nope" not found' });
      expect(called).toBe(0);
    } finally {
      await strict.close();
    }
  });

  it('a plugin that answers later is waited for over HTTP; the in-process helpers refuse it and write nothing', async () => {
    api.admission.register({
      name: 'slow',
      admit: async (a) => {
        await Promise.resolve();
        (a.object!.metadata as { labels?: Labels }).labels = { slow: 'yes' };
        return { allowed: true, warnings: ['answered later'] };
      },
    });
    const r = await raw(api, '/api/v1/namespaces/default/configmaps', { method: 'POST', body: configMap('s') });
    expect(r.status).toBe(201);
    expect(r.json.metadata.labels).toEqual({ slow: 'yes' });
    expect(r.headers.warning).toBe('299 - "answered later"');
    const rv = api.resourceVersion;
    expect(() => api.create('configmaps', { metadata: { name: 'in-process', namespace: 'default' } })).toThrow(AsyncAdmissionError);
    expect(api.resourceVersion).toBe(rv);
    expect(api.get('configmaps', 'default', 'in-process')).toBeUndefined();
  });
});
