// The test cluster calls the admission webhooks of the configurations written to it (ADMISSION.md
// §2-§4): in process (a rxkube/webhooks webhook object, no HTTP) and over HTTPS, through
// client-node, with kube's matching, failure policies, reinvocation and texts.
import { afterEach, describe, expect, it } from '@jest/globals';
import { AdmissionregistrationV1Api, ApiException, CoreV1Api, type V1ConfigMap } from '@kubernetes/client-node';
import { VirtualTimeScheduler } from 'rxjs';
import { AsyncAdmissionError, startFakeApiServer, type FakeApiServer, type FakeApiServerOptions, type InProcessWebhook } from '../../../lib/testing/index.js';
import { builtInResources } from '../../../lib/index.js';
import { allowed, denied, patched } from '../../../lib/webhooks/admissionDecision.js';
import { mutatingWebhook, validatingWebhook } from '../../../lib/webhooks/admissionWebhook.js';
import { webhookResource } from '../../../lib/webhooks/webhookResource.js';
import { kubeRequest } from '../kubeRequest.js';

type Labels = { [k: string]: string };
type ConfigMap = V1ConfigMap & { metadata: { labels?: Labels } };
const configMaps = webhookResource<ConfigMap>(builtInResources.configMaps);
const base64 = (s: string) => Buffer.from(s).toString('base64');

let api: FakeApiServer | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function start(options: FakeApiServerOptions = {}): Promise<{ core: CoreV1Api; admission: AdmissionregistrationV1Api; server: FakeApiServer }> {
  api = await startFakeApiServer(options);
  const kc = api.kubeConfig();
  return { core: kc.makeApiClient(CoreV1Api), admission: kc.makeApiClient(AdmissionregistrationV1Api), server: api };
}

async function failure(p: Promise<unknown>): Promise<{ code: number; message: string; reason: string; causes?: Array<{ message: string }> }> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof ApiException)) throw e;
    const s = JSON.parse(String(e.body)) as { message: string; reason: string; details?: { causes?: Array<{ message: string }> } };
    return { code: e.code, message: s.message, reason: s.reason, ...(s.details?.causes ? { causes: s.details.causes } : {}) };
  }
  throw new Error('the write succeeded');
}

const rule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] };
const hook = (name: string, url: string, extra: object = {}) => ({ name, clientConfig: { url }, rules: [rule], sideEffects: 'None', admissionReviewVersions: ['v1'], ...extra });
const cm = (name: string, labels: Labels = {}, data: Labels = { a: '1' }) => ({ metadata: { name, labels }, data });

describe('the test cluster runs admission webhooks', () => {
  it('stores configurations with kube\'s defaults and refuses what kube refuses (422)', async () => {
    const { admission } = await start();
    const created = await admission.createValidatingWebhookConfiguration({ body: { metadata: { name: 'v' }, webhooks: [hook('a.example.com', 'https://h.test/x')] } });
    expect(created.webhooks?.[0]).toMatchObject({ failurePolicy: 'Fail', matchPolicy: 'Equivalent', timeoutSeconds: 10, namespaceSelector: {}, objectSelector: {}, rules: [{ scope: '*' }] });
    const m = await admission.createMutatingWebhookConfiguration({ body: { metadata: { name: 'm' }, webhooks: [hook('a.example.com', 'https://h.test/x')] } });
    expect(m.webhooks?.[0].reinvocationPolicy).toBe('Never');
    const bad = await failure(admission.createValidatingWebhookConfiguration({ body: { metadata: { name: 'w' }, webhooks: [hook('a.example.com', 'https://h.test/x', { timeoutSeconds: 31 })] } }));
    expect(bad.code).toBe(422);
    expect(bad.message).toBe('ValidatingWebhookConfiguration.admissionregistration.k8s.io "w" is invalid: webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds');
    const { sideEffects: _, ...withoutSideEffects } = hook('a.example.com', 'http://h.test/x');
    const noSideEffects = await failure(admission.createValidatingWebhookConfiguration({ body: { metadata: { name: 'w' }, webhooks: [withoutSideEffects as never] } }));
    expect(noSideEffects.message).toContain('webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun');
    expect(noSideEffects.message).toContain("webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]");
  });

  it('a validating webhook (the rxkube/webhooks object, called in process) denies with its message and code; warnings become Warning headers', async () => {
    const validate = validatingWebhook<ConfigMap>({
      name: 'no-latest.example.com',
      resource: configMaps,
      validate: (r) => (r.object?.data?.tag === 'latest' ? denied('pin your tags', { code: 422, reason: 'Invalid' }) : allowed({ warnings: ['tags are checked'] })),
    });
    const { core, admission, server } = await start({ webhooks: { urls: { 'https://webhooks.test/validate': validate } } });
    await admission.createValidatingWebhookConfiguration({ body: { metadata: { name: 'tags' }, webhooks: [hook('no-latest.example.com', 'https://webhooks.test/validate')] } });
    const refused = await failure(core.createNamespacedConfigMap({ namespace: 'default', body: cm('a', {}, { tag: 'latest' }) }));
    expect(refused).toEqual({ code: 422, reason: 'Invalid', message: 'admission webhook "no-latest.example.com" denied the request: pin your tags' });
    expect(server.get('configmaps', 'default', 'a')).toBeUndefined();
    const ok = await kubeRequest(server.kubeConfig(), '/api/v1/namespaces/default/configmaps', { method: 'POST', body: JSON.stringify(cm('b', {}, { tag: 'v1' })), headers: { 'Content-Type': 'application/json' } });
    expect(ok.status).toBe(201);
    expect(ok.headers.warning).toBe('299 - "tags are checked"');
  });

  it('a mutating webhook\'s patch is applied, defaulted and stored; webhooks run by configuration name; IfNeeded reinvokes once', async () => {
    const calls: string[] = [];
    const label = (key: string) =>
      mutatingWebhook<ConfigMap>({
        name: `${key}.example.com`,
        resource: configMaps,
        reinvocationPolicy: key === 'first' ? 'IfNeeded' : 'Never',
        mutate: () => {
          calls.push(key);
          return patched((d) => {
            d.metadata!.labels = { ...d.metadata!.labels, [key]: String(calls.length) };
          });
        },
      });
    const { core, admission } = await start({ webhooks: { urls: { 'https://webhooks.test/first': label('first'), 'https://webhooks.test/second': label('second') } } });
    // Named so that list order differs from kube's order (configurations sorted by name).
    await admission.createMutatingWebhookConfiguration({ body: { metadata: { name: 'b-second' }, webhooks: [hook('second.example.com', 'https://webhooks.test/second')] } });
    await admission.createMutatingWebhookConfiguration({ body: { metadata: { name: 'a-first' }, webhooks: [hook('first.example.com', 'https://webhooks.test/first', { reinvocationPolicy: 'IfNeeded' })] } });
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('a') });
    expect(calls).toEqual(['first', 'second', 'first']);
    expect(created.metadata?.labels).toEqual({ first: '3', second: '2' });
  });

  it('rules, namespaceSelector, objectSelector and matchConditions decide which writes a webhook sees', async () => {
    const seen: string[] = [];
    const spy: InProcessWebhook = (review) => {
      const r = (review as { request: { uid: string; name: string } }).request;
      seen.push(r.name);
      return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: r.uid, allowed: true } };
    };
    const { core, admission, server } = await start({ namespaces: ['team-a', 'team-b'], webhooks: { urls: { 'https://webhooks.test/spy': spy } } });
    server.patch('namespaces', undefined, 'team-a', { metadata: { labels: { watched: 'yes' } } });
    await admission.createValidatingWebhookConfiguration({
      body: {
        metadata: { name: 'spy' },
        webhooks: [
          hook('spy.example.com', 'https://webhooks.test/spy', {
            namespaceSelector: { matchLabels: { watched: 'yes' } },
            objectSelector: { matchExpressions: [{ key: 'skip', operator: 'DoesNotExist' }] },
            matchConditions: [{ name: 'not-system', expression: '!object.metadata.name.startsWith("system-")' }],
          }),
        ],
      },
    });
    await core.createNamespacedConfigMap({ namespace: 'team-a', body: cm('seen') });
    await core.createNamespacedConfigMap({ namespace: 'team-b', body: cm('other-namespace') });
    await core.createNamespacedConfigMap({ namespace: 'team-a', body: cm('labelled', { skip: 'y' }) });
    await core.createNamespacedConfigMap({ namespace: 'team-a', body: cm('system-x') });
    await core.createNamespacedSecret({ namespace: 'team-a', body: { metadata: { name: 'not-a-configmap' } } });
    expect(seen).toEqual(['seen']);
  });

  it('failurePolicy: a webhook that is down blocks the write (Fail, kube\'s 500) or is skipped (Ignore)', async () => {
    const { core, admission } = await start();
    const down = 'https://127.0.0.1:1/validate';
    await admission.createValidatingWebhookConfiguration({ body: { metadata: { name: 'down' }, webhooks: [hook('down.example.com', down)] } });
    const refused = await failure(core.createNamespacedConfigMap({ namespace: 'default', body: cm('a') }));
    const why = 'failed calling webhook "down.example.com": failed to call webhook: Post "https://127.0.0.1:1/validate?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused';
    expect(refused).toEqual({ code: 500, reason: 'InternalError', message: `Internal error occurred: ${why}`, causes: [{ message: why }] });
    await admission.patchValidatingWebhookConfiguration({ name: 'down', body: [{ op: 'replace', path: '/webhooks/0/failurePolicy', value: 'Ignore' }] });
    expect((await core.createNamespacedConfigMap({ namespace: 'default', body: cm('a') })).metadata?.name).toBe('a');
  });

  it('failurePolicy on a timeout, in virtual time: timeoutSeconds on the server\'s scheduler', async () => {
    const scheduler = new VirtualTimeScheduler(undefined, 60_000);
    let called!: () => void;
    const calledOnce = new Promise<void>((r) => (called = r));
    const never: InProcessWebhook = () => {
      called();
      return new Promise(() => undefined);
    };
    const { core, admission } = await start({ scheduler, webhooks: { urls: { 'https://webhooks.test/slow': never } } });
    await admission.createValidatingWebhookConfiguration({ body: { metadata: { name: 'slow' }, webhooks: [hook('slow.example.com', 'https://webhooks.test/slow', { timeoutSeconds: 3 })] } });
    const write = failure(core.createNamespacedConfigMap({ namespace: 'default', body: cm('a') }));
    await calledOnce;
    scheduler.flush();
    expect((await write).message).toBe('Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "https://webhooks.test/slow?timeout=3s": context deadline exceeded');
  });

  it('a wrong uid, a patch that does not apply, a patch on DELETE: kube\'s answers', async () => {
    const answer = (response: object, uid?: string): InProcessWebhook => (review) => ({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: uid ?? (review as { request: { uid: string } }).request.uid, allowed: true, ...response },
    });
    const { core, admission } = await start({
      webhooks: {
        urls: {
          'https://webhooks.test/uid': answer({}, 'not-it'),
          'https://webhooks.test/bad-patch': answer({ patchType: 'JSONPatch', patch: base64('[{"op":"remove","path":"/spec/nope"}]') }),
        },
      },
    });
    await admission.createValidatingWebhookConfiguration({ body: { metadata: { name: 'uid' }, webhooks: [hook('uid.example.com', 'https://webhooks.test/uid')] } });
    const uid = await failure(core.createNamespacedConfigMap({ namespace: 'default', body: cm('a') }));
    expect(uid.code).toBe(500);
    expect(uid.message).toMatch(/^Internal error occurred: failed calling webhook "uid.example.com": received invalid webhook response: expected response.uid="[0-9a-f-]{36}", got "not-it"$/);
    await admission.deleteValidatingWebhookConfiguration({ name: 'uid' });
    await admission.createMutatingWebhookConfiguration({ body: { metadata: { name: 'p' }, webhooks: [hook('patch.example.com', 'https://webhooks.test/bad-patch', { failurePolicy: 'Ignore' })] } });
    const patch = await failure(core.createNamespacedConfigMap({ namespace: 'default', body: cm('a') }));
    expect(patch).toMatchObject({ code: 500, reason: 'InternalError' });
    expect(patch.message).toBe('Internal error occurred: remove operation does not apply: doc is missing path: "/spec/nope": missing value');
  });

  it('a write no webhook matches is answered at once, so the in-process helpers can make it; one a webhook matches must go over HTTP', async () => {
    const { admission, server } = await start({ webhooks: { urls: { 'https://webhooks.test/ok': (r) => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: (r as { request: { uid: string } }).request.uid, allowed: true } }) } } });
    await admission.createMutatingWebhookConfiguration({ body: { metadata: { name: 'm' }, webhooks: [hook('m.example.com', 'https://webhooks.test/ok')] } });
    await admission.createValidatingWebhookConfiguration({ body: { metadata: { name: 'v' }, webhooks: [hook('v.example.com', 'https://webhooks.test/ok')] } });
    expect(server.create('secrets', { metadata: { name: 's', namespace: 'default' } }).metadata.name).toBe('s');
    expect(() => server.create('configmaps', cm('a'))).toThrow(AsyncAdmissionError);
    expect(server.get('configmaps', 'default', 'a')).toBeUndefined();
  });

  it('writes to webhook configurations are never intercepted, so a failing webhook cannot lock itself in', async () => {
    const { admission } = await start();
    const everything = { apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*/*'] };
    await admission.createValidatingWebhookConfiguration({ body: { metadata: { name: 'all' }, webhooks: [hook('all.example.com', 'https://127.0.0.1:1/x', { rules: [everything] })] } });
    await admission.createMutatingWebhookConfiguration({ body: { metadata: { name: 'all' }, webhooks: [hook('all.example.com', 'https://127.0.0.1:1/x', { rules: [everything] })] } });
    await admission.deleteValidatingWebhookConfiguration({ name: 'all' });
    await admission.deleteMutatingWebhookConfiguration({ name: 'all' });
  });

  it('dry run: a webhook with side effects is refused with 400 (a configuration stored before sideEffects was required)', async () => {
    const { core, admission } = await start({
      typeRules: new Map([['validatingwebhookconfigurations.admissionregistration.k8s.io', {}]]),
      webhooks: { urls: { 'https://webhooks.test/ok': (r) => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: (r as { request: { uid: string } }).request.uid, allowed: true } }) } },
    });
    await admission.createValidatingWebhookConfiguration({ body: { metadata: { name: 'old' }, webhooks: [hook('old.example.com', 'https://webhooks.test/ok', { sideEffects: 'Some' })] } });
    const refused = await failure(core.createNamespacedConfigMap({ namespace: 'default', body: cm('a'), dryRun: 'All' }));
    expect(refused).toEqual({ code: 400, reason: 'BadRequest', message: 'admission webhook "old.example.com" does not support dry run' });
    expect((await core.createNamespacedConfigMap({ namespace: 'default', body: cm('a') })).metadata?.name).toBe('a');
  });
});
