// fieldValidation on writes of built-in types (unknown fields, from client-node's models), over HTTP
// through client-node's credentials.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { KubeConfig } from '@kubernetes/client-node';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { kubeRequest } from './kubeRequest.js';

const deployment = (extra: object) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx', ...extra }] } }, replicaz: 2 },
});

describe('fake API server: fieldValidation for built-in types', () => {
  let api: FakeApiServer;
  let kc: KubeConfig;
  beforeEach(async () => {
    api = await startFakeApiServer();
    kc = api.kubeConfig();
  });
  afterEach(() => api.close());

  const post = (query: string, body: object) =>
    kubeRequest(kc, `/apis/apps/v1/namespaces/default/deployments${query}`, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });

  it('Strict: every unknown field is named in one 400, with its path, in document order, and nothing is stored', async () => {
    const res = await post('?fieldValidation=Strict', deployment({ imagePullPolicyy: 'Always' }));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({
      reason: 'BadRequest',
      message: 'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolicyy", unknown field "spec.replicaz"',
    });
    expect(api.get('deployments.apps', 'default', 'web')).toBeUndefined();
  });

  it('Warn (the default): stored, with a Warning header per unknown field', async () => {
    const res = await post('', deployment({}));
    expect(res.status).toBe(201);
    expect(res.headers.warning).toBe('299 - "unknown field \\"spec.replicaz\\""');
  });

  it('Ignore: stored without a warning; known fields never warn; an unknown mode is a 400', async () => {
    expect((await post('?fieldValidation=Ignore', deployment({}))).headers.warning).toBeUndefined();
    const clean = await kubeRequest(kc, '/api/v1/namespaces/default/configmaps?fieldValidation=Strict', {
      method: 'POST',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: 'b' } }, data: { any: 'key' } }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(clean.status).toBe(201);
    expect(clean.headers.warning).toBeUndefined();
    const bad = await post('?fieldValidation=Loud', deployment({}));
    // apimachinery's ValidateCreateOptions: field.NotSupported, a 422 on CreateOptions.
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.text).message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"',
    );
  });

  it('custom resources are not checked here (their CRD schema is)', async () => {
    api.registerResource({ group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true });
    const res = await kubeRequest(kc, '/apis/example.com/v1/namespaces/default/widgets?fieldValidation=Strict', {
      method: 'POST',
      body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, anything: 1 }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(201);
  });
});
