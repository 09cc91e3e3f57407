// Bad admission objects never crash the server nor give a 500: a field of the wrong JSON type is
// kube's 400 (Go's decode error), a missing or wrong value its 422.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiStatusError } from '../../../lib/errors.js';
import { startFakeApiServer, type FakeApiServer } from '../../../lib/testing/index.js';

const G = 'admissionregistration.k8s.io';
let api: FakeApiServer;
beforeAll(async () => {
  api = await startFakeApiServer({ http: true });
});
afterAll(() => api.close());

function statusOf(plural: string, body: object): { code: number; message: string } {
  try {
    api.create(`${plural}.${G}`, body);
  } catch (e) {
    if (e instanceof ApiStatusError) return { code: e.statusCode, message: e.status.message ?? '' };
    throw e;
  }
  api.delete(`${plural}.${G}`, undefined, (body as { metadata: { name: string } }).metadata.name);
  return { code: 201, message: '' };
}

describe('bad admission objects', () => {
  it('a webhooks list that is a string is kube\'s 400, naming the Go field and type', () => {
    expect(statusOf('validatingwebhookconfigurations', { metadata: { name: 'a' }, webhooks: 'x' })).toEqual({
      code: 400,
      message: expect.stringContaining(
        'ValidatingWebhookConfiguration in version "v1" cannot be handled as a ValidatingWebhookConfiguration: json: cannot unmarshal string into Go struct field ValidatingWebhookConfiguration.webhooks of type []v1.ValidatingWebhook',
      ) as unknown as string,
    });
  });

  const cases: Array<[string, object, number]> = [
    ['validatingwebhookconfigurations', { webhooks: [null] }, 422],
    ['validatingwebhookconfigurations', { webhooks: [{ name: 'a.b.c', rules: 'x', clientConfig: 'y' }] }, 400],
    ['validatingwebhookconfigurations', { webhooks: [{ name: 'a.b.c', rules: [null, { operations: 'x' }] }] }, 400],
    ['mutatingwebhookconfigurations', { webhooks: [{ name: 'a.b.c', rules: [null], clientConfig: { service: null }, sideEffects: 'None', admissionReviewVersions: ['v1'] }] }, 422],
    ['mutatingwebhookconfigurations', { webhooks: [{ name: 'a.b.c', timeoutSeconds: 'x' }] }, 400],
    ['validatingadmissionpolicies', { spec: 'x' }, 400],
    ['validatingadmissionpolicies', { spec: {} }, 422],
    ['validatingadmissionpolicies', { spec: { matchConstraints: { resourceRules: [null] }, validations: [null, { expression: 'object..x' }] } }, 422],
    ['validatingadmissionpolicybindings', { spec: { policyName: 3 } }, 400],
    ['validatingadmissionpolicybindings', { spec: { paramRef: {} } }, 422],
    ['mutatingadmissionpolicies', { spec: { matchConstraints: [] } }, 400],
    ['mutatingadmissionpolicies', { spec: { mutations: [{ patchType: 'Strategic' }, null], reinvocationPolicy: 'Always' } }, 422],
    ['mutatingadmissionpolicybindings', { spec: { paramRef: { name: 'a', selector: {} } } }, 422],
  ];
  it.each(cases)('%s %j: %d', (plural, body, code) => {
    expect(statusOf(plural, { metadata: { name: 'a' }, ...body }).code).toBe(code);
  });
});
