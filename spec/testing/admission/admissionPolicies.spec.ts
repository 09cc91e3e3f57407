// ValidatingAdmissionPolicy and MutatingAdmissionPolicy in the test cluster (ADMISSION.md §5, §6):
// creation checks (CEL compiled, kube's 422), matching, params, variables, validation actions,
// failure policies and mutations, through client-node.
import { afterEach, describe, expect, it } from '@jest/globals';
import { AdmissionregistrationV1Api, ApiException, AppsV1Api, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { startFakeApiServer, type FakeApiServer } from '../../../lib/testing/index.js';
import { kubeRequest } from '../kubeRequest.js';

let api: FakeApiServer | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const GROUP = 'admissionregistration.k8s.io';
async function start(): Promise<{ core: CoreV1Api; apps: AppsV1Api; admission: AdmissionregistrationV1Api; kc: KubeConfig; server: FakeApiServer }> {
  api = await startFakeApiServer({ namespaces: ['shop'] });
  const kc = api.kubeConfig();
  return { core: kc.makeApiClient(CoreV1Api), apps: kc.makeApiClient(AppsV1Api), admission: kc.makeApiClient(AdmissionregistrationV1Api), kc, server: api };
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

const deployments = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] };
const configMaps = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] };
const deployment = (name: string, replicas: number, labels: { [k: string]: string } = { app: name }) => ({
  metadata: { name, labels },
  spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
});
const binding = (name: string, policyName: string, spec: object = {}) => ({ metadata: { name }, spec: { policyName, validationActions: ['Deny'], ...spec } });

describe('ValidatingAdmissionPolicy', () => {
  it('refuses at creation what kube refuses: CEL that does not compile, a non-bool validation, Deny with Warn (422)', async () => {
    const { admission } = await start();
    const syntax = await failure(
      admission.createValidatingAdmissionPolicy({ body: { metadata: { name: 'p' }, spec: { matchConstraints: { resourceRules: [deployments] }, validations: [{ expression: 'object.spec.replicas <=' }] } } }),
    );
    expect(syntax.code).toBe(422);
    expect(syntax.message).toMatch(/^ValidatingAdmissionPolicy\.admissionregistration\.k8s\.io "p" is invalid: spec\.validations\[0\]\.expression: Invalid value: "object\.spec\.replicas <=": compilation failed: /);
    const notBool = await failure(
      admission.createValidatingAdmissionPolicy({ body: { metadata: { name: 'p' }, spec: { matchConstraints: { resourceRules: [deployments] }, validations: [{ expression: '"yes"' }] } } }),
    );
    expect(notBool.message).toBe('ValidatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: spec.validations[0].expression: Invalid value: "\\"yes\\"": must evaluate to bool but got string');
    const empty = await failure(admission.createValidatingAdmissionPolicy({ body: { metadata: { name: 'p' }, spec: { matchConstraints: { resourceRules: [deployments] } } } }));
    expect(empty.message).toContain('spec.validations: Required value: validations or auditAnnotations must contain at least one item');
    const both = await failure(admission.createValidatingAdmissionPolicyBinding({ body: binding('b', 'p', { validationActions: ['Deny', 'Warn'] }) }));
    expect(both.message).toBe(
      'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    );
    // A misspelt field compiles (every variable is dynamic at creation, as in kube).
    const created = await admission.createValidatingAdmissionPolicy({ body: { metadata: { name: 'p' }, spec: { matchConstraints: { resourceRules: [deployments] }, validations: [{ expression: 'object.spec.replicaz <= 5' }] } } });
    expect(created.spec?.failurePolicy).toBe('Fail');
    expect(created.spec?.matchConstraints?.matchPolicy).toBe('Equivalent');
  });

  it('denies with its messageExpression and reason, in kube\'s text; variables and request are there; other writes pass', async () => {
    const { apps, admission } = await start();
    await admission.createValidatingAdmissionPolicy({
      body: {
        metadata: { name: 'max-replicas' },
        spec: {
          matchConstraints: { resourceRules: [deployments] },
          variables: [{ name: 'limit', expression: 'request.userInfo.username == "admin" ? 5 : 1' }],
          validations: [{ expression: 'object.spec.replicas <= variables.limit', messageExpression: '"replicas must be at most " + string(variables.limit) + ", not " + string(object.spec.replicas)', reason: 'Forbidden' }],
        },
      },
    });
    await admission.createValidatingAdmissionPolicyBinding({ body: binding('max-replicas-b', 'max-replicas') });
    const refused = await failure(apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web', 7) }));
    const cause = "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-b' denied request: replicas must be at most 5, not 7";
    expect(refused).toEqual({ code: 403, reason: 'Forbidden', message: `deployments.apps "web" is forbidden: ${cause}`, causes: [{ message: cause }] });
    expect((await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web', 3) })).spec?.replicas).toBe(3);
  });

  it('without a message: "failed expression: ..." and 422 Invalid; Warn gives a Warning header instead; Audit lets it through', async () => {
    const { admission, kc, server } = await start();
    await admission.createValidatingAdmissionPolicy({
      body: { metadata: { name: 'team' }, spec: { matchConstraints: { resourceRules: [configMaps] }, validations: [{ expression: "has(object.metadata.labels) && 'team' in object.metadata.labels" }] } },
    });
    await admission.createValidatingAdmissionPolicyBinding({ body: binding('team-deny', 'team', { matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'shop' } } } }) });
    await admission.createValidatingAdmissionPolicyBinding({ body: binding('team-warn', 'team', { validationActions: ['Warn', 'Audit'] }) });
    const post = (ns: string, name: string) =>
      kubeRequest(kc, `/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: JSON.stringify({ metadata: { name } }), headers: { 'Content-Type': 'application/json' } });
    const denied = await post('shop', 'a');
    expect(denied.status).toBe(422);
    expect((JSON.parse(denied.text) as { message: string }).message).toBe(
      "configmaps \"a\" is forbidden: ValidatingAdmissionPolicy 'team' with binding 'team-deny' denied request: failed expression: has(object.metadata.labels) && 'team' in object.metadata.labels",
    );
    const warned = await post('default', 'a');
    expect(warned.status).toBe(201);
    expect(warned.headers.warning).toBe(
      "299 - \"Validation failed for ValidatingAdmissionPolicy 'team' with binding 'team-warn': failed expression: has(object.metadata.labels) && 'team' in object.metadata.labels\"",
    );
    expect(server.get('configmaps', 'default', 'a')).toBeDefined();
  });

  it('params: by name from the request\'s namespace, by selector (each must pass), missing with Deny or Allow', async () => {
    const { core, admission } = await start();
    await admission.createValidatingAdmissionPolicy({
      body: {
        metadata: { name: 'allowed-keys' },
        spec: {
          paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
          matchConstraints: { resourceRules: [{ ...configMaps, resources: ['secrets'] }] },
          validations: [{ expression: 'object.data.all(k, k in params.data)', messageExpression: '"only the " + string(size(params.data)) + " keys of " + params.metadata.name + " are allowed"' }],
        },
      },
    });
    await admission.createValidatingAdmissionPolicyBinding({ body: binding('by-name', 'allowed-keys', { paramRef: { name: 'secret-keys', parameterNotFoundAction: 'Deny' } }) });
    const missing = await failure(core.createNamespacedSecret({ namespace: 'shop', body: { metadata: { name: 's' }, data: { user: 'YQ==' } } }));
    expect(missing.message).toBe(
      "secrets \"s\" is forbidden: ValidatingAdmissionPolicy 'allowed-keys' with binding 'by-name' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
    await core.createNamespacedConfigMap({ namespace: 'shop', body: { metadata: { name: 'secret-keys', labels: { keys: 'yes' } }, data: { user: '', password: '' } } });
    await core.createNamespacedSecret({ namespace: 'shop', body: { metadata: { name: 's' }, data: { user: 'YQ==' } } });
    const extra = await failure(core.createNamespacedSecret({ namespace: 'shop', body: { metadata: { name: 't' }, data: { token: 'YQ==' } } }));
    expect(extra.message).toBe("secrets \"t\" is forbidden: ValidatingAdmissionPolicy 'allowed-keys' with binding 'by-name' denied request: only the 2 keys of secret-keys are allowed");
    await admission.deleteValidatingAdmissionPolicyBinding({ name: 'by-name' });
    await admission.createValidatingAdmissionPolicyBinding({ body: binding('by-selector', 'allowed-keys', { paramRef: { selector: { matchLabels: { keys: 'yes' } }, namespace: 'shop', parameterNotFoundAction: 'Allow' } }) });
    await core.createNamespacedConfigMap({ namespace: 'shop', body: { metadata: { name: 'narrow', labels: { keys: 'yes' } }, data: { user: '' } } });
    const narrow = await failure(core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'u' }, data: { password: 'YQ==' } } }));
    expect(narrow.message).toContain('only the 1 keys of narrow are allowed');
    await core.deleteCollectionNamespacedConfigMap({ namespace: 'shop', labelSelector: 'keys=yes' });
    expect((await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'u' }, data: { anything: 'YQ==' } } })).metadata?.name).toBe('u');
  });

  it('failurePolicy: an expression that errs denies (Fail) or is skipped (Ignore); namespaceObject is the request\'s namespace', async () => {
    const { core, admission, server } = await start();
    const policy = (failurePolicy: string) => ({
      metadata: { name: 'ns-owner' },
      spec: { failurePolicy, matchConstraints: { resourceRules: [configMaps] }, validations: [{ expression: 'namespaceObject.metadata.labels.owner == object.metadata.labels.owner' }] },
    });
    await admission.createValidatingAdmissionPolicy({ body: policy('Fail') });
    await admission.createValidatingAdmissionPolicyBinding({ body: binding('ns-owner-b', 'ns-owner') });
    const erred = await failure(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a', labels: { owner: 'x' } } } }));
    expect(erred.code).toBe(422);
    expect(erred.message).toMatch(/^configmaps "a" is forbidden: ValidatingAdmissionPolicy 'ns-owner' with binding 'ns-owner-b' denied request: expression 'namespaceObject.metadata.labels.owner == object.metadata.labels.owner' resulted in error: /);
    server.patch('namespaces', undefined, 'default', { metadata: { labels: { owner: 'x' } } });
    expect((await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a', labels: { owner: 'x' } } } })).metadata?.name).toBe('a');
    await admission.replaceValidatingAdmissionPolicy({ name: 'ns-owner', body: { ...policy('Ignore'), metadata: { name: 'ns-owner', resourceVersion: (await admission.readValidatingAdmissionPolicy({ name: 'ns-owner' })).metadata?.resourceVersion } } });
    expect((await core.createNamespacedConfigMap({ namespace: 'shop', body: { metadata: { name: 'b', labels: { owner: 'y' } } } })).metadata?.name).toBe('b');
  });
});

describe('MutatingAdmissionPolicy', () => {
  const mapBody = (name: string, mutations: object[], extra: object = {}) => ({
    metadata: { name },
    spec: { matchConstraints: { resourceRules: [configMaps] }, reinvocationPolicy: 'Never', mutations, ...extra },
  });
  const post = (server: FakeApiServer, path: string, body: object) => kubeRequest(server.kubeConfig(), path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });

  it('ApplyConfiguration merges (server-side apply\'s merge) and JSONPatch applies, in order, on objects with and without labels', async () => {
    const { core, server } = await start();
    server.create(`mutatingadmissionpolicies.${GROUP}`, mapBody('label', [
      { patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"managed-by": "policy"}}}' } },
      { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/env"), value: request.namespace == "default" ? "test" : "x"}]' } },
    ]));
    server.create(`mutatingadmissionpolicybindings.${GROUP}`, { metadata: { name: 'label-b' }, spec: { policyName: 'label' } });
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a', labels: { app: 'web' } } } });
    expect(created.metadata?.labels).toEqual({ app: 'web', 'managed-by': 'policy', 'example.com/env': 'test' });
    const res = await post(server, '/api/v1/namespaces/default/configmaps', { metadata: { name: 'b' } });
    expect(res.status).toBe(201);
    expect((JSON.parse(res.text) as { metadata: { labels: object } }).metadata.labels).toEqual({ 'managed-by': 'policy', 'example.com/env': 'test' });
  });

  it('a mutation that fails under failurePolicy Fail is kube\'s 403 Invalid naming policy and binding; Ignore skips it', async () => {
    const { core, server } = await start();
    server.create(`mutatingadmissionpolicies.${GROUP}`, mapBody('bad', [{ patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "remove", path: "/spec/nope"}]' } }]));
    server.create(`mutatingadmissionpolicybindings.${GROUP}`, { metadata: { name: 'bad-b' }, spec: { policyName: 'bad' } });
    const refused = await failure(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' } } }));
    const text = "policy 'bad' with binding 'bad-b' denied request: JSON Patch: remove operation does not apply: doc is missing path: \"/spec/nope\": missing value";
    expect(refused).toEqual({ code: 403, reason: 'Invalid', message: text, causes: [{ message: text }] });
    // (client-node 1.4 has no MutatingAdmissionPolicy v1 client: the data plane writes it.)
    server.patch(`mutatingadmissionpolicies.${GROUP}`, undefined, 'bad', { spec: { failurePolicy: 'Ignore' } });
    expect((await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' } } })).metadata?.name).toBe('a');
  });

  it('refuses at creation a mutation whose CEL does not compile, and a policy without reinvocationPolicy (422)', async () => {
    const { server } = await start();
    const path = `/apis/${GROUP}/v1/mutatingadmissionpolicies`;
    const res = await post(server, path, mapBody('p', [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: ' } }]));
    const bad = JSON.parse(res.text) as { code: number; message: string };
    expect(bad.code).toBe(422);
    expect(bad.message).toMatch(/^MutatingAdmissionPolicy\.admissionregistration\.k8s\.io "p" is invalid: spec\.mutations\[0\]\.applyConfiguration\.expression: Invalid value: "Object\{metadata: ": compilation failed: /);
    const { reinvocationPolicy: _, ...spec } = mapBody('p', [{ patchType: 'JSONPatch', jsonPatch: { expression: '[]' } }]).spec;
    const noPolicy = JSON.parse((await post(server, path, { metadata: { name: 'p' }, spec })).text) as { message: string };
    expect(noPolicy.message).toBe('MutatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: spec.reinvocationPolicy: Required value');
  });
});
