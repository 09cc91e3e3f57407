// The webhook bars through a real kubectl (scripts/ensure-kubectl.sh; $KUBECTL wins): `kubectl
// apply` of an object a user's validating webhook denies fails with the webhook's message, and a
// mutating webhook's change is visible in `kubectl get -o yaml`.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtInResources } from '../../../lib/index.js';
import { startFakeApiServer, type FakeApiServer } from '../../../lib/testing/index.js';
import { allowed, denied, patched } from '../../../lib/webhooks/admissionDecision.js';
import { mutatingWebhook, validatingWebhook } from '../../../lib/webhooks/admissionWebhook.js';
import { webhookConfigurations } from '../../../lib/webhooks/webhookConfiguration.js';
import { webhookResource } from '../../../lib/webhooks/webhookResource.js';
import { findKubectl, kubectlRunner, type KubectlResult } from '../kubectlRunner.js';

type ConfigMap = V1ConfigMap & { metadata: { labels?: { [k: string]: string } } };
const configMaps = webhookResource<ConfigMap>(builtInResources.configMaps);
const validate = validatingWebhook<ConfigMap>({
  name: 'no-latest.example.com',
  resource: configMaps,
  validate: (r) => (r.object?.data?.tag === 'latest' ? denied('the tag "latest" is not allowed: pin a version') : allowed()),
});
const mutate = mutatingWebhook<ConfigMap>({
  name: 'team.example.com',
  resource: configMaps,
  mutate: () => patched((d) => void (d.metadata!.labels = { ...d.metadata!.labels, team: 'storage' })),
});

describe('kubectl against a test cluster that calls the user\'s webhooks', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-webhooks-kubectl-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    // The configurations name a URL the server answers in process with the webhook objects.
    const url = 'https://webhooks.test';
    api = await startFakeApiServer({ webhooks: { urls: { [`${url}${validate.path}`]: validate, [`${url}${mutate.path}`]: mutate } } });
    await api.writeKubeConfig(join(dir, 'config'));
    const { validating, mutating } = webhookConfigurations({ name: 'config-maps.example.com', webhooks: [validate, mutate], endpoint: { url } });
    api.create('validatingwebhookconfigurations.admissionregistration.k8s.io', validating!);
    api.create('mutatingwebhookconfigurations.admissionregistration.k8s.io', mutating!);
  });
  afterEach(() => api.close());

  const kubectlWith = async (text: string, ...a: string[]): Promise<KubectlResult> => {
    writeFileSync(join(dir, 'cm.yaml'), text);
    return kubectlRunner(kubectl, join(dir, 'config'), join(dir, 'cache'))(...a, '-f', join(dir, 'cm.yaml'));
  };
  const configMap = (tag: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings, namespace: default }\ndata: { tag: "${tag}" }\n`;

  it('kubectl apply of an object the validating webhook denies fails with the webhook\'s message', async () => {
    const r = await kubectlWith(configMap('latest'), 'apply', '--validate=false');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('admission webhook "no-latest.example.com" denied the request: the tag "latest" is not allowed: pin a version');
    expect(api.get('configmaps', 'default', 'settings')).toBeUndefined();
  });

  it('a mutating webhook\'s change is visible in kubectl get -o yaml', async () => {
    expect((await kubectlWith(configMap('v1.2'), 'apply', '--validate=false')).code).toBe(0);
    const r = await kubectlRunner(kubectl, join(dir, 'config'), join(dir, 'cache'))('get', 'configmap', 'settings', '-n', 'default', '-o', 'yaml');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/labels:\n\s+team: storage\n/);
  });
});
