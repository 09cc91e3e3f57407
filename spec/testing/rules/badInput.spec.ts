// Bad bodies never crash the rules: a field of the wrong type reads as absent and yields kube's
// causes; only what kube fails to decode (a quantity, base64) throws, as a 400 StatusError.
import { describe, expect, it } from '@jest/globals';
import type { JsonObject } from '../../../lib/testing/fakeApiServer/resources.js';
import { StatusError } from '../../../lib/testing/fakeApiServer/status.js';
import { builtInTypeRules } from '../../../lib/testing/fakeApiServer/registry/rules/index.js';
import { clone, fakeAllocators } from './ruleSupport.js';

const garbage: ReadonlyArray<[string, JsonObject]> = [
  ['an empty object', {}],
  ['spec a string', { spec: 'x' }],
  ['spec null, metadata a number', { spec: null, metadata: 7 }],
  ['lists of the wrong things', { spec: { containers: 'x', ports: [1, null, 'a'], volumes: [[]], rules: 5, template: { spec: { containers: [null, 3] } }, selector: 'app=a' } }],
  ['nested nulls', { spec: { template: null, jobTemplate: { spec: null }, strategy: null, updateStrategy: { rollingUpdate: 'x' } }, data: null, subsets: [{ ports: [null] }] }],
  ['numbers where strings go', { spec: { type: 5, sessionAffinity: 1, schedule: 3, selector: { matchLabels: { a: 1 } } }, type: 9, roleRef: 'x', subjects: [1] }],
];

describe('rules never crash on bad input', () => {
  const ids = [...builtInTypeRules.keys()];
  it.each(ids.flatMap((id) => garbage.map(([name, body]) => [id, name, body] as const)))('%s: %s', (id, _name, body) => {
    const rules = builtInTypeRules.get(id)!;
    const obj = clone(body);
    try {
      rules.defaults?.(obj);
    } catch (e) {
      expect(e).toBeInstanceOf(StatusError);
      expect((e as StatusError).status.code).toBe(400);
      return;
    }
    expect(Array.isArray(rules.validateCreate?.(obj) ?? [])).toBe(true);
    expect(Array.isArray(rules.validateUpdate?.(obj, clone(obj)) ?? [])).toBe(true);
    expect(Array.isArray(rules.warnings?.(obj, undefined) ?? [])).toBe(true);
    expect(Array.isArray(rules.allocate?.(obj, undefined, fakeAllocators()) ?? [])).toBe(true);
  });
});

describe('builtInTypeRules', () => {
  it('has an entry for every built-in type issues 33 and 34 name', () => {
    expect([...builtInTypeRules.keys()].sort()).toEqual(
      [
        'pods', 'podtemplates', 'replicationcontrollers', 'services', 'endpoints', 'configmaps', 'secrets', 'namespaces', 'serviceaccounts', 'persistentvolumeclaims',
        'deployments.apps', 'replicasets.apps', 'statefulsets.apps', 'daemonsets.apps', 'jobs.batch', 'cronjobs.batch', 'ingresses.networking.k8s.io',
        'networkpolicies.networking.k8s.io', 'poddisruptionbudgets.policy', 'horizontalpodautoscalers.autoscaling', 'leases.coordination.k8s.io',
        'roles.rbac.authorization.k8s.io', 'clusterroles.rbac.authorization.k8s.io', 'rolebindings.rbac.authorization.k8s.io',
        'clusterrolebindings.rbac.authorization.k8s.io', 'endpointslices.discovery.k8s.io',
        // issue 34: the admission types
        'validatingwebhookconfigurations.admissionregistration.k8s.io', 'mutatingwebhookconfigurations.admissionregistration.k8s.io',
        'validatingadmissionpolicies.admissionregistration.k8s.io', 'validatingadmissionpolicybindings.admissionregistration.k8s.io',
        'mutatingadmissionpolicies.admissionregistration.k8s.io', 'mutatingadmissionpolicybindings.admissionregistration.k8s.io',
      ].sort(),
    );
  });
});
