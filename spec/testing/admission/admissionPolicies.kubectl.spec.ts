// The policy bars through a real kubectl (scripts/ensure-kubectl.sh; $KUBECTL wins): a
// ValidatingAdmissionPolicy denies `kubectl apply` with its messageExpression, and a
// MutatingAdmissionPolicy's change is applied (seen in `kubectl get -o yaml`). The policies and
// bindings are themselves written with kubectl apply.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApiServer, type FakeApiServer } from '../../../lib/testing/index.js';
import { findKubectl, kubectlRunner, type KubectlResult } from '../kubectlRunner.js';

const policies = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: { name: max-replicas }
spec:
  matchConstraints:
    resourceRules:
    - { apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments] }
  validations:
  - expression: object.spec.replicas <= 5
    messageExpression: '"at most 5 replicas, asked for " + string(object.spec.replicas)'
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: { name: max-replicas-b }
spec: { policyName: max-replicas, validationActions: [Deny] }
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: { name: owner-label }
spec:
  matchConstraints:
    resourceRules:
    - { apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments] }
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"owner": request.userInfo.username}}}'
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: { name: owner-label-b }
spec: { policyName: owner-label }
`;

const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: default }
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: web, image: "nginx:1.27" }] }
`;

describe('kubectl against a test cluster with admission policies', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-policies-kubectl-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    api = await startFakeApiServer();
    await api.writeKubeConfig(join(dir, 'config'));
    const r = await kubectlWith('policies.yaml', policies, 'apply', '--validate=false');
    expect(r.stderr).toBe('');
  });
  afterEach(() => api.close());

  const kubectlWith = async (file: string, text: string, ...a: string[]): Promise<KubectlResult> => {
    writeFileSync(join(dir, file), text);
    return kubectlRunner(kubectl, join(dir, 'config'), join(dir, 'cache'))(...a, '-f', join(dir, file));
  };

  it('a ValidatingAdmissionPolicy denies kubectl apply with its messageExpression', async () => {
    const r = await kubectlWith('web.yaml', deployment(7), 'apply', '--validate=false');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `The deployments "web" is invalid: : ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-b' denied request: at most 5 replicas, asked for 7`,
    );
  });

  it('a MutatingAdmissionPolicy\'s change is applied: kubectl get -o yaml shows it', async () => {
    expect((await kubectlWith('web.yaml', deployment(2), 'apply', '--validate=false')).code).toBe(0);
    const r = await kubectlRunner(kubectl, join(dir, 'config'), join(dir, 'cache'))('get', 'deployment', 'web', '-n', 'default', '-o', 'yaml');
    expect(r.stdout).toMatch(/labels:\n\s+owner: admin\n/);
  });
});
