// Ingress, NetworkPolicy, PodDisruptionBudget, HorizontalPodAutoscaler (v2 and v1), Lease and
// RBAC: kube's defaults and validation words.
import { describe, expect, it } from '@jest/globals';
import type { JsonObject } from '../../../lib/testing/fakeApiServer/resources.js';
import { createCauses, defaulted, updateCauses } from './ruleSupport.js';

describe('Ingress', () => {
  const ing = (spec: JsonObject, annotations?: JsonObject): JsonObject => ({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'i', ...(annotations ? { annotations } : {}) }, spec });
  const backend = { service: { name: 'web', port: { number: 80 } } };

  it.each([
    ['a valid Ingress', { rules: [{ host: 'example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] }, []],
    ['neither rules nor a default backend', {}, ['spec: Invalid value: null: either `defaultBackend` or `rules` must be specified']],
    ['a path without pathType', { rules: [{ http: { paths: [{ path: '/', backend }] } }] }, ['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']],
    ['a relative Prefix path and an IP host', { rules: [{ host: '10.0.0.1', http: { paths: [{ path: 'api', pathType: 'Prefix', backend }] } }] }, [
      'spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
      'spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path',
    ]],
    ['a backend with a port name and number', { defaultBackend: { service: { name: 'web', port: { name: 'http', number: 80 } } } }, ['spec.defaultBackend: Invalid value: "": cannot set both port name & port number']],
    ['a backend without a port', { defaultBackend: { service: { name: 'web' } } }, ['spec.defaultBackend: Required value: port name or number is required']],
  ])('%s', (_name, spec, expected) => {
    expect(createCauses('ingresses.networking.k8s.io', ing(spec as JsonObject))).toEqual(expected);
  });

  it('the class annotation must agree with ingressClassName', () => {
    expect(createCauses('ingresses.networking.k8s.io', ing({ ingressClassName: 'nginx', defaultBackend: backend }, { 'kubernetes.io/ingress.class': 'traefik' }))).toEqual([
      'annotations.kubernetes.io/ingress.class: Invalid value: "traefik": must match `ingressClassName` when both are specified',
    ]);
  });
});

describe('NetworkPolicy', () => {
  const np = (spec: JsonObject): JsonObject => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'n' }, spec });

  it('policyTypes follow the rules present; ports default to TCP', () => {
    expect(defaulted('networkpolicies.networking.k8s.io', np({ podSelector: {} })).spec).toEqual({ podSelector: {}, policyTypes: ['Ingress'] });
    expect(defaulted('networkpolicies.networking.k8s.io', np({ podSelector: {}, egress: [{ ports: [{ port: 53 }] }] })).spec).toEqual({
      podSelector: {},
      egress: [{ ports: [{ port: 53, protocol: 'TCP' }] }],
      policyTypes: ['Ingress', 'Egress'],
    });
  });

  it('peers, ports and policy types are checked', () => {
    expect(createCauses('networkpolicies.networking.k8s.io', np({ podSelector: {}, ingress: [{ from: [{}], ports: [{ port: 'http', endPort: 90 }] }], policyTypes: ['Sideways'] }))).toEqual([
      'spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
      'spec.ingress[0].from[0]: Required value: must specify a peer',
      'spec.policyTypes[0]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"',
    ]);
  });
});

describe('PodDisruptionBudget', () => {
  const pdb = (spec: JsonObject): JsonObject => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'p' }, spec });

  it('minAvailable and maxUnavailable exclude each other; percents stop at 100%', () => {
    expect(createCauses('poddisruptionbudgets.policy', pdb({ minAvailable: 1, maxUnavailable: '150%', selector: { matchLabels: { app: 'a' } } }))).toEqual([
      'spec: Invalid value: {"MinAvailable":1,"Selector":{"matchLabels":{"app":"a"}},"MaxUnavailable":"150%","UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set',
      'spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
    ]);
    expect(updateCauses('poddisruptionbudgets.policy', pdb({ minAvailable: 2 }), pdb({ minAvailable: 1 }))).toEqual([]);
  });
});

describe('HorizontalPodAutoscaler', () => {
  const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

  it('autoscaling/v2: minReplicas 1 and a CPU 80% metric; behavior is filled in', () => {
    const hpa = defaulted('horizontalpodautoscalers.autoscaling', { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', spec: { scaleTargetRef: target, maxReplicas: 5, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } } });
    expect(hpa.spec).toEqual({
      scaleTargetRef: target,
      maxReplicas: 5,
      minReplicas: 1,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
      behavior: {
        scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
        scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
      },
    });
  });

  it('autoscaling/v1: minReplicas 1 and the 80% CPU target its conversion adds', () => {
    expect(defaulted('horizontalpodautoscalers.autoscaling', { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', spec: { scaleTargetRef: target, maxReplicas: 3 } }).spec).toEqual({
      scaleTargetRef: target,
      maxReplicas: 3,
      minReplicas: 1,
      targetCPUUtilizationPercentage: 80,
    });
  });

  it('replica bounds, the target and metric sources are checked', () => {
    expect(createCauses('horizontalpodautoscalers.autoscaling', { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', spec: { scaleTargetRef: { kind: 'Deployment' }, minReplicas: 3, maxReplicas: 2, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } }] } })).toEqual([
      'spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`',
      'spec.scaleTargetRef.name: Required value',
      'spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
    ]);
  });
});

describe('Lease', () => {
  it('durations and transitions are checked', () => {
    expect(createCauses('leases.coordination.k8s.io', { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec: { leaseDurationSeconds: 0, leaseTransitions: -1 } })).toEqual([
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});

describe('RBAC', () => {
  const rbac = 'rbac.authorization.k8s.io';

  it('bindings default roleRef and subject API groups', () => {
    expect(defaulted(`rolebindings.${rbac}`, { roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }, { kind: 'User', name: 'u' }] })).toEqual({
      roleRef: { kind: 'Role', name: 'r', apiGroup: rbac },
      // A ServiceAccount's apiGroup defaults to "", which JSON omits (omitempty).
      subjects: [{ kind: 'ServiceAccount', name: 'sa' }, { kind: 'User', name: 'u', apiGroup: rbac }],
    });
  });

  it('rules need verbs, groups and resources; unknown verbs are stored as they are', () => {
    expect(createCauses(`roles.${rbac}`, { rules: [{ verbs: [] }, { verbs: ['frobnicate'], apiGroups: [''], resources: ['widgets'] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }] })).toEqual([
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
      'rules[2].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
    ]);
  });

  it('a ClusterRoleBinding binds ClusterRoles only; service account subjects need a namespace; roleRef never changes', () => {
    const crb = (name: string): JsonObject => ({ roleRef: { kind: 'ClusterRole', name }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] });
    expect(createCauses(`clusterrolebindings.${rbac}`, { roleRef: { kind: 'Role', name: 'r' } })).toEqual(['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"']);
    expect(createCauses(`clusterrolebindings.${rbac}`, crb('view'))).toEqual(['subjects[0].namespace: Required value']);
    expect(updateCauses(`clusterrolebindings.${rbac}`, crb('edit'), crb('view'))).toEqual([
      'subjects[0].namespace: Required value',
      'roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"edit"}: cannot change roleRef',
    ]);
  });
});
