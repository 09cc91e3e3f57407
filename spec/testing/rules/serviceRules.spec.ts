// Services as kube stores them: SetDefaults_Service, the IP family fields and cluster IP from the
// service CIDR, node ports from 30000-32767, the strategy keeping what was allocated when a
// manifest is resubmitted, and the validation words.
import { describe, expect, it } from '@jest/globals';
import type { JsonObject } from '../../../lib/testing/fakeApiServer/resources.js';
import { StatusError } from '../../../lib/testing/fakeApiServer/status.js';
import { createCauses, defaulted, fakeAllocators, render, rulesOf, updateCauses } from './ruleSupport.js';

const rules = rulesOf('services');
const svc = (spec: JsonObject): JsonObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec });

/** Defaults then allocation, as a create runs them. */
function created(spec: JsonObject, allocators = fakeAllocators()): { obj: JsonObject; causes: string[] } {
  const obj = defaulted('services', svc(spec));
  const causes = render(rules.allocate?.(obj, undefined, allocators) ?? []);
  return { obj, causes };
}

describe('Service defaults and allocation', () => {
  it('a ClusterIP Service: type, affinity, protocol, targetPort = port, internal traffic policy, an IPv4 cluster IP', () => {
    const { obj, causes } = created({ selector: { app: 'web' }, ports: [{ port: 80 }] });
    expect(causes).toEqual([]);
    expect(obj.spec).toEqual({
      selector: { app: 'web' },
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
      clusterIPs: ['10.0.0.10'],
      clusterIP: '10.0.0.10',
    });
  });

  it('a NodePort Service: external traffic policy Cluster, one node port per port number', () => {
    const { obj } = created({ type: 'NodePort', ports: [{ name: 'a', port: 80, targetPort: 'http' }, { name: 'b', port: 80, protocol: 'UDP' }, { name: 'c', port: 443, nodePort: 30443 }] });
    expect(obj.spec).toMatchObject({
      externalTrafficPolicy: 'Cluster',
      ports: [
        { name: 'a', port: 80, targetPort: 'http', protocol: 'TCP', nodePort: 30000 },
        { name: 'b', port: 80, protocol: 'UDP', targetPort: 80, nodePort: 30000 },
        { name: 'c', port: 443, protocol: 'TCP', targetPort: 443, nodePort: 30443 },
      ],
    });
  });

  it('a LoadBalancer with Local traffic gets allocateLoadBalancerNodePorts and a health check node port', () => {
    const { obj } = created({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80 }] });
    expect(obj.spec).toMatchObject({ allocateLoadBalancerNodePorts: true, healthCheckNodePort: 30001, ports: [{ nodePort: 30000 }] });
  });

  it('ClientIP affinity gets a 3-hour timeout; None drops the config', () => {
    expect(defaulted('services', svc({ sessionAffinity: 'ClientIP', ports: [{ port: 1 }] })).spec).toMatchObject({ sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } } });
    expect(defaulted('services', svc({ sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } }, ports: [{ port: 1 }] })).spec).not.toHaveProperty('sessionAffinityConfig');
  });

  it('headless Services get no IP; headless without selector is RequireDualStack with both families', () => {
    expect(created({ clusterIP: 'None', selector: { app: 'a' }, ports: [{ port: 80 }] }).obj.spec).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'], ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] });
    expect(created({ clusterIP: 'None' }).obj.spec).toMatchObject({ clusterIPs: ['None'], ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6'] });
  });

  it('ExternalName gets neither IPs nor families', () => {
    const { obj } = created({ type: 'ExternalName', externalName: 'example.com' });
    expect(obj.spec).toEqual({ type: 'ExternalName', externalName: 'example.com', sessionAffinity: 'None' });
  });

  it('a requested cluster IP is reserved; a taken or out-of-range one is the allocator\'s 422', () => {
    const allocators = fakeAllocators();
    expect(created({ clusterIP: '10.0.0.50', ports: [{ port: 80 }] }, allocators).obj.spec).toMatchObject({ clusterIP: '10.0.0.50', clusterIPs: ['10.0.0.50'] });
    expect(created({ clusterIP: '10.0.0.50', ports: [{ port: 80 }] }, allocators).causes).toEqual(['spec.clusterIPs: Invalid value: ["10.0.0.50"]: failed to allocate IP 10.0.0.50: provided IP is already allocated']);
    expect(created({ clusterIP: '10.1.0.5', ports: [{ port: 80 }] }, allocators).causes).toEqual([
      'spec.clusterIPs: Invalid value: ["10.1.0.5"]: failed to allocate IP 10.1.0.5: the provided IP (10.1.0.5) is not in the valid range. The range of valid IPs is 10.0.0.0/24',
    ]);
  });

  it('a node port out of range or taken is refused with the allocator\'s words', () => {
    const allocators = fakeAllocators();
    expect(created({ type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] }, allocators).causes).toEqual([
      'spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
    ]);
    created({ type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }, allocators);
    expect(created({ type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }, allocators).causes).toEqual(['spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated']);
  });

  it('a full range is kube\'s 500', () => {
    const allocators = { ...fakeAllocators(), clusterIP: () => undefined };
    expect(() => created({ ports: [{ port: 80 }] }, allocators)).toThrow(StatusError);
    expect(() => created({ ports: [{ port: 80 }] }, allocators)).toThrow('Internal error occurred: failed to allocate a serviceIP: range is full');
  });

  it('dual-stack requests are refused on this single-stack IPv4 cluster', () => {
    expect(created({ ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] }).causes).toEqual(['spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services']);
    expect(created({ ipFamilies: ['IPv6'], ports: [{ port: 80 }] }).causes).toEqual(['spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster']);
  });
});

describe('Service updates keep what was allocated', () => {
  const stored = (): JsonObject => {
    const allocators = fakeAllocators();
    return created({ type: 'NodePort', selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }] }, allocators).obj;
  };

  it('a resubmitted manifest without clusterIP and nodePort keeps them and is valid', () => {
    const old = stored();
    const next = defaulted('services', svc({ type: 'NodePort', selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }] }));
    expect(rules.validateUpdate?.(next, old)).toEqual([]);
    rules.allocate?.(next, old, fakeAllocators());
    expect(next.spec).toEqual(old.spec);
  });

  it('changing the cluster IP is refused; so is changing the type to ClusterIP while keeping a node port', () => {
    const old = stored();
    const moved = defaulted('services', { ...old, spec: { ...(old.spec as JsonObject), clusterIP: '10.0.0.99', clusterIPs: ['10.0.0.99'] } });
    expect(render(rules.validateUpdate?.(moved, old) ?? [])).toEqual(['spec.clusterIPs[0]: Invalid value: ["10.0.0.99"]: may not change once set']);
    const toClusterIP = defaulted('services', svc({ type: 'ClusterIP', selector: { app: 'web' }, ports: [{ name: 'http', port: 80, nodePort: 31111 }] }));
    expect(render(rules.validateUpdate?.(toClusterIP, old) ?? [])).toEqual(["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]);
  });

  it('changing the type to ClusterIP drops the allocated node ports and external traffic policy', () => {
    const old = stored();
    const next = defaulted('services', { ...old, spec: { ...(old.spec as JsonObject), type: 'ClusterIP' } });
    expect(rules.validateUpdate?.(next, old)).toEqual([]);
    rules.allocate?.(next, old, fakeAllocators());
    expect(next.spec).not.toHaveProperty('externalTrafficPolicy');
    expect((next.spec as { ports: JsonObject[] }).ports[0]).not.toHaveProperty('nodePort');
  });
});

describe('Service validation', () => {
  it.each([
    ['no ports', { selector: { a: 'b' } }, ['spec.ports: Required value']],
    ['an unknown type', { type: 'Public', ports: [{ port: 80 }] }, ['spec.type: Unsupported value: "Public": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']],
    [
      'two unnamed ports on the same number and protocol',
      { ports: [{ port: 80 }, { port: 80 }] },
      [
        'spec.ports[0].name: Required value',
        'spec.ports[1].name: Required value',
        'spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}',
      ],
    ],
    ['port 0 and a bad targetPort name', { ports: [{ port: 0, targetPort: 'Http' }] }, ['spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive', 'spec.ports[0].targetPort: Invalid value: "Http": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)']],
    ['a bad protocol', { ports: [{ port: 80, protocol: 'HTTP' }] }, ['spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"']],
    ['ExternalName without a name', { type: 'ExternalName' }, ['spec.externalName: Required value']],
    ['a nodePort on ClusterIP', { ports: [{ port: 80, nodePort: 30001 }] }, ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]],
    ['externalTrafficPolicy on ClusterIP', { externalTrafficPolicy: 'Local', ports: [{ port: 80 }] }, ['spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services']],
    ['a loopback external IP', { externalIPs: ['127.0.0.1'], ports: [{ port: 80 }] }, ['spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']],
    ['clusterIP and clusterIPs that disagree', { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.6'], ports: [{ port: 80 }] }, ['spec.clusterIPs: Invalid value: ["10.0.0.6"]: first value must match `clusterIP`']],
    ['a bad selector value', { selector: { app: 'a b' }, ports: [{ port: 80 }] }, [expect.stringMatching(/^spec\.selector: Invalid value: "a b": a valid label must be an empty string/)]],
  ])('%s', (_name, spec, expected) => {
    expect(createCauses('services', svc(spec as JsonObject))).toEqual(expected);
  });

  it('a headless Service warns that session affinity is ignored (kube checks the defaulted value)', () => {
    expect(rules.warnings?.(defaulted('services', svc({ clusterIP: 'None', ports: [{ port: 80 }] })), undefined)).toEqual(['spec.SessionAffinity is ignored for headless services']);
  });

  it('an update checks the same rules', () => {
    const old = created({ ports: [{ port: 80 }] }).obj;
    expect(updateCauses('services', { ...old, spec: { ...(old.spec as JsonObject), type: 'Public' } }, old)).toEqual([
      'spec.type: Unsupported value: "Public": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    ]);
  });
});
