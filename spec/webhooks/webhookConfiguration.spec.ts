// Configuration as code: the Validating/MutatingWebhookConfiguration generated from the webhooks,
// the CRD's conversion stanza, and kube's creation checks with kube's texts.
import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../../lib/configError.js';
import { allowed, patched } from '../../lib/webhooks/admissionDecision.js';
import { mutatingWebhook, validatingWebhook } from '../../lib/webhooks/admissionWebhook.js';
import { conversionWebhook } from '../../lib/webhooks/conversionWebhook.js';
import { validateWebhookConfiguration, webhookConfigurationProblems, WebhookConfigurationError, type WebhookLike } from '../../lib/webhooks/validateWebhookConfiguration.js';
import { crdConversion, webhookConfigurations } from '../../lib/webhooks/webhookConfiguration.js';
import { webhookResource } from '../../lib/webhooks/webhookResource.js';
import { backups, type Backup } from './support.js';

const validate = validatingWebhook<Backup>({
  name: 'backups.validate.example.com',
  resource: backups,
  operations: ['CREATE', 'UPDATE', 'DELETE'],
  subresources: ['status'],
  namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] },
  objectSelector: { matchLabels: { team: 'storage' } },
  matchConditions: [{ name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" }],
  timeoutSeconds: 5,
  validate: () => allowed(),
});
const mutate = mutatingWebhook<Backup>({ name: 'backups.default.example.com', resource: backups, reinvocationPolicy: 'IfNeeded', failurePolicy: 'Ignore', mutate: () => patched(() => undefined) });
const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('webhookConfigurations', () => {
  it('generates both configurations from the webhooks: rules from the resource, kube defaults filled in, url + path, caBundle base64', () => {
    const { validating, mutating } = webhookConfigurations({ name: 'backups.example.com', webhooks: [validate, mutate], endpoint: { url: 'https://127.0.0.1:9443/' }, caBundle: ca, labels: { app: 'backups' } });
    expect(validating).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'backups.example.com', labels: { app: 'backups' } },
      webhooks: [
        {
          name: 'backups.validate.example.com',
          admissionReviewVersions: ['v1'],
          rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['backups', 'backups/status'], operations: ['CREATE', 'UPDATE', 'DELETE'], scope: 'Namespaced' }],
          failurePolicy: 'Fail',
          matchPolicy: 'Equivalent',
          sideEffects: 'None',
          timeoutSeconds: 5,
          namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] },
          objectSelector: { matchLabels: { team: 'storage' } },
          matchConditions: [{ name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" }],
          clientConfig: { url: 'https://127.0.0.1:9443/validate-example-com-v1-backup', caBundle: Buffer.from(ca).toString('base64') },
        },
      ],
    });
    expect(mutating?.webhooks).toEqual([
      expect.objectContaining({
        name: 'backups.default.example.com',
        reinvocationPolicy: 'IfNeeded',
        failurePolicy: 'Ignore',
        rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['backups'], operations: ['CREATE', 'UPDATE'], scope: 'Namespaced' }],
        clientConfig: { url: 'https://127.0.0.1:9443/mutate-example-com-v1-backup', caBundle: Buffer.from(ca).toString('base64') },
      }),
    ]);
  });

  it('a Service endpoint puts each path in service.path; no caBundle leaves it out; a configuration without webhooks of a type is absent', () => {
    const { validating, mutating } = webhookConfigurations({ name: 'backups', webhooks: [validate], endpoint: { service: { namespace: 'backup-system', name: 'backup-webhooks', port: 8443 } } });
    expect(validating?.webhooks[0].clientConfig).toEqual({ service: { namespace: 'backup-system', name: 'backup-webhooks', path: '/validate-example-com-v1-backup', port: 8443 } });
    expect(mutating).toBeUndefined();
  });

  it('the core group gets controller-runtime paths; two webhooks on one path are refused', () => {
    const pods = webhookResource<object>({ group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true });
    const w = validatingWebhook({ name: 'pods.validate.example.com', resource: pods, validate: () => allowed() });
    expect(w.path).toBe('/validate--v1-pod');
    const twin = validatingWebhook({ name: 'pods2.validate.example.com', resource: pods, validate: () => allowed() });
    expect(() => webhookConfigurations({ name: 'x', webhooks: [w, twin], endpoint: { url: 'https://h' } })).toThrow(ConfigError);
  });

  it('the CRD conversion stanza from a conversion webhook; an http URL is refused', () => {
    const convert = conversionWebhook({ resource: backups, convert: {} });
    expect(crdConversion(convert, { service: { namespace: 'backup-system', name: 'backup-webhooks' } }, ca)).toEqual({
      strategy: 'Webhook',
      webhook: { clientConfig: { service: { namespace: 'backup-system', name: 'backup-webhooks', path: '/convert' }, caBundle: Buffer.from(ca).toString('base64') }, conversionReviewVersions: ['v1'] },
    });
    expect(() => crdConversion(convert, { url: 'http://127.0.0.1:9443' }, undefined)).toThrow('must be https');
  });
});

describe("kube's creation checks (validateWebhookConfiguration)", () => {
  const hook = (over: Partial<WebhookLike>): WebhookLike => ({
    name: 'a.b.example.com',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    clientConfig: { url: 'https://h.example.com/x' },
    rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }],
    ...over,
  });
  const problems = (...webhooks: WebhookLike[]) =>
    webhookConfigurationProblems({ kind: 'MutatingWebhookConfiguration', metadata: { name: 'cfg' }, webhooks }).map((p) => `${p.field}: ${p.message}`);

  it('accepts a correct configuration', () => {
    expect(problems(hook({}))).toEqual([]);
  });

  it('names, side effects, timeouts, policies, review versions', () => {
    expect(problems(hook({ name: 'k8s.io', sideEffects: undefined, timeoutSeconds: 0, failurePolicy: 'Maybe', reinvocationPolicy: 'Always', admissionReviewVersions: ['v2', 'v2'] }))).toEqual([
      'webhooks[0].name: Invalid value: "k8s.io": should be a domain with at least three segments separated by dots',
      'webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
      'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      'webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds',
      'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
      'webhooks[0].admissionReviewVersions[1]: Invalid value: "v2": duplicate version',
      'webhooks[0].admissionReviewVersions: Invalid value: ["v2","v2"]: must include at least one of v1, v1beta1',
    ]);
    expect(problems(hook({ sideEffects: 'Some' }))).toEqual(['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']);
    expect(problems(hook({}), hook({}))).toEqual(['webhooks[1].name: Duplicate value: "a.b.example.com"']);
  });

  it('rules: wildcards alone, resources and subresources', () => {
    expect(problems(hook({ rules: [{ apiGroups: ['*', 'apps'], apiVersions: [], resources: ['*', 'pods', 'deployments/*', 'deployments/status'], operations: ['*', 'CREATE'] }] }))).toEqual([
      'webhooks[0].rules[0].operations: Invalid value: ["*","CREATE"]: if \'*\' is present, must not specify other operations',
      'webhooks[0].rules[0].apiGroups: Invalid value: ["*","apps"]: if \'*\' is present, must not specify other API groups',
      'webhooks[0].rules[0].apiVersions: Required value',
      "webhooks[0].rules[0].resources[3]: Invalid value: \"deployments/status\": if 'deployments/*' is present, must not specify deployments/status",
      'webhooks[0].rules[0].resources: Invalid value: ["*","pods","deployments/*","deployments/status"]: if \'*\' is present, must not specify other resources without subresources',
    ]);
  });

  it('clientConfig: exactly one of url or service; https only, no user info, query or fragment; service path segments', () => {
    expect(problems(hook({ clientConfig: {} }))).toEqual(['webhooks[0].clientConfig: Required value: exactly one of url or service is required']);
    expect(problems(hook({ clientConfig: { url: 'http://u:p@h.example.com/x?a=1#f' } }))).toEqual([
      "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      'webhooks[0].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "f": fragments are not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "a=1": query parameters are not permitted in the URL',
    ]);
    expect(problems(hook({ clientConfig: { service: { namespace: '', name: 'svc', path: '/Validate//x', port: 70000 } } }))).toEqual([
      'webhooks[0].clientConfig.service.namespace: Required value: service namespace is required',
      'webhooks[0].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
      expect.stringContaining('webhooks[0].clientConfig.service.path: Invalid value: "/Validate//x": segment[0]: a lowercase RFC 1123 subdomain'),
      'webhooks[0].clientConfig.service.path: Invalid value: "/Validate//x": segment[1] may not be empty',
    ]);
    expect(problems(hook({ clientConfig: { service: { namespace: 'ns', name: 'svc', path: 'validate' } } }))).toEqual([
      "webhooks[0].clientConfig.service.path: Invalid value: \"validate\": must start with a '/'",
    ]);
  });

  it('matchConditions compile as CEL to a bool, have unique qualified names, at most 64', () => {
    const conditions = [
      { name: 'ok', expression: 'object.metadata.name == "a"' },
      { name: 'ok', expression: 'object.metadata.name ==' },
      { name: 'bad name!', expression: '1 + 1' },
    ];
    const out = problems(hook({ matchConditions: conditions }));
    expect(out[0]).toMatch(/^webhooks\[0\]\.matchConditions\[1\]\.expression: Invalid value: "object.metadata.name ==": compilation failed: /);
    expect(out[1]).toBe('webhooks[0].matchConditions[1].name: Duplicate value: "ok"');
    expect(out[2]).toBe('webhooks[0].matchConditions[2].expression: Invalid value: "1 + 1": must evaluate to bool but got int');
    expect(out[3]).toMatch(/^webhooks\[0\]\.matchConditions\[2\]\.name: Invalid value: "bad name!": /);
    const many = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
    expect(problems(hook({ matchConditions: many }))).toEqual(['webhooks[0].matchConditions: Too many: 65: must have at most 64 items']);
  });

  it("throws WebhookConfigurationError with kube's whole 422 text and every cause", () => {
    const config = { kind: 'ValidatingWebhookConfiguration' as const, metadata: { name: 'Bad_Name' }, webhooks: [hook({ timeoutSeconds: 31 })] };
    const e = (() => {
      try {
        validateWebhookConfiguration(config);
      } catch (x) {
        return x;
      }
    })() as WebhookConfigurationError;
    expect(e).toBeInstanceOf(WebhookConfigurationError);
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.causes.map((c) => c.field)).toEqual(['metadata.name', 'webhooks[0].timeoutSeconds']);
    expect(e.message).toMatch(/^ValidatingWebhookConfiguration\.admissionregistration\.k8s\.io "Bad_Name" is invalid: \[metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain .*, webhooks\[0\]\.timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds\]$/);
  });
});
