// kube's printers of Services, Endpoints, EndpointSlices, Ingresses, IngressClasses and NetworkPolicies.
import { describe, expect, it } from '@jest/globals';
import {
  endpointSlicePrinter,
  endpointsPrinter,
  ingressClassPrinter,
  ingressPrinter,
  networkPolicyPrinter,
  servicePrinter,
} from '../../../lib/testing/fakeApiServer/printers/network.js';
import type { TablePrinter } from '../../../lib/testing/fakeApiServer/printers/table.js';
import type { JsonObject } from '../../../lib/testing/fakeApiServer/resources.js';
import { NOW, object } from './fixtures.js';

describe('network printers', () => {
  it.each<[string, TablePrinter, string[], number[]]>([
    ['services', servicePrinter, ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector'], [0, 0, 0, 0, 0, 0, 1]],
    ['endpoints', endpointsPrinter, ['Name', 'Endpoints', 'Age'], [0, 0, 0]],
    ['endpointslices', endpointSlicePrinter, ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age'], [0, 0, 0, 0, 0]],
    ['ingresses', ingressPrinter, ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age'], [0, 0, 0, 0, 0, 0]],
    ['ingressclasses', ingressClassPrinter, ['Name', 'Controller', 'Parameters', 'Age'], [0, 0, 0, 0]],
    ['networkpolicies', networkPolicyPrinter, ['Name', 'Pod-Selector', 'Age'], [0, 0, 0]],
  ])('%s have kube columns', (_t, printer, names, priorities) => {
    expect(printer.columns.map((c) => c.name)).toEqual(names);
    expect(printer.columns.map((c) => c.priority)).toEqual(priorities);
  });

  it.each<[string, TablePrinter, JsonObject, ReadonlyArray<unknown>]>([
    [
      'a ClusterIP service',
      servicePrinter,
      object('web', { spec: { type: 'ClusterIP', clusterIP: '10.0.0.12', clusterIPs: ['10.0.0.12'], ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }], selector: { app: 'web' } } }),
      ['web', 'ClusterIP', '10.0.0.12', '<none>', '80/TCP,53/UDP', '5m', 'app=web'],
    ],
    [
      'a headless service without selector or ports',
      servicePrinter,
      object('db', { spec: { clusterIP: 'None' } }),
      ['db', 'ClusterIP', 'None', '<none>', '<none>', '5m', '<none>'],
    ],
    [
      'a NodePort service with external IPs',
      servicePrinter,
      object('np', { spec: { type: 'NodePort', clusterIP: '10.0.0.13', externalIPs: ['1.2.3.4', '5.6.7.8'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] } }),
      ['np', 'NodePort', '10.0.0.13', '1.2.3.4,5.6.7.8', '80:30080/TCP', '5m', '<none>'],
    ],
    [
      'a LoadBalancer waiting for its address',
      servicePrinter,
      object('lb', { spec: { type: 'LoadBalancer', clusterIP: '10.0.0.14', ports: [{ port: 443, nodePort: 31443, protocol: 'TCP' }] } }),
      ['lb', 'LoadBalancer', '10.0.0.14', '<pending>', '443:31443/TCP', '5m', '<none>'],
    ],
    [
      'a LoadBalancer with ingress addresses (sorted, unique) and an external IP',
      servicePrinter,
      object('lb', {
        spec: { type: 'LoadBalancer', clusterIPs: ['10.0.0.15'], externalIPs: ['9.9.9.9'] },
        status: { loadBalancer: { ingress: [{ ip: '203.0.113.9' }, { hostname: 'lb.example.com' }, { ip: '203.0.113.1' }, { ip: '203.0.113.9' }] } },
      }),
      ['lb', 'LoadBalancer', '10.0.0.15', '203.0.113.1,203.0.113.9,lb.example.com,9.9.9.9', '<none>', '5m', '<none>'],
    ],
    [
      'an ExternalName service',
      servicePrinter,
      object('ext', { spec: { type: 'ExternalName', externalName: 'db.example.com' } }),
      ['ext', 'ExternalName', '<none>', 'db.example.com', '<none>', '5m', '<none>'],
    ],
    ['endpoints without subsets', endpointsPrinter, object('web', {}), ['web', '<none>', '5m']],
    [
      'endpoints: the first three of each port, then how many more',
      endpointsPrinter,
      object('web', {
        subsets: [
          { addresses: [{ ip: '10.0.0.5' }, { ip: '10.0.0.6' }], ports: [{ port: 8080 }, { port: 9090 }] },
          { addresses: [{ ip: 'fd00::7' }], ports: [{ port: 8080 }] },
        ],
      }),
      ['web', '10.0.0.5:8080,10.0.0.6:8080,10.0.0.5:9090 + 2 more...', '5m'],
    ],
    [
      'endpoints of a headless service without ports, IPv6 bracketed with a port',
      endpointsPrinter,
      object('db', { subsets: [{ addresses: [{ ip: '10.0.0.8' }] }, { addresses: [{ ip: 'fd00::9' }], ports: [{ port: 5432 }] }] }),
      ['db', '10.0.0.8,[fd00::9]:5432', '5m'],
    ],
    [
      'an endpoint slice',
      endpointSlicePrinter,
      object('web-abc', {
        addressType: 'IPv4',
        ports: [{ port: 8080 }, { name: 'metrics' }, {}, { port: 1 }],
        endpoints: [{ addresses: ['10.0.0.5'] }, { addresses: ['10.0.0.6', '10.0.0.7'] }],
      }),
      ['web-abc', 'IPv4', '8080,metrics,* + 1 more...', '10.0.0.5,10.0.0.6,10.0.0.7', '5m'],
    ],
    ['an empty endpoint slice', endpointSlicePrinter, object('e', { addressType: 'IPv6' }), ['e', 'IPv6', '<unset>', '<unset>', '5m']],
    [
      'an ingress with TLS and a class',
      ingressPrinter,
      object('shop', {
        spec: { ingressClassName: 'nginx', rules: [{ host: 'shop.example.com' }, { host: 'api.example.com' }], tls: [{ hosts: ['shop.example.com'] }] },
        status: { loadBalancer: { ingress: [{ ip: '203.0.113.5' }] } },
      }),
      ['shop', 'nginx', 'shop.example.com,api.example.com', '203.0.113.5', '80, 443', '5m'],
    ],
    ['an ingress without hosts or class', ingressPrinter, object('any', { spec: { defaultBackend: {} } }), ['any', '<none>', '*', '', '80', '5m']],
    [
      'an ingress with more than three rules',
      ingressPrinter,
      object('many', { spec: { rules: [{ host: 'a' }, {}, { host: 'b' }, { host: 'c' }, { host: 'd' }] } }),
      ['many', '<none>', 'a,b,c + 2 more...', '', '80', '5m'],
    ],
    [
      'an ingress class with parameters',
      ingressClassPrinter,
      object('nginx', { spec: { controller: 'k8s.io/ingress-nginx', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb' } } }),
      ['nginx', 'k8s.io/ingress-nginx', 'IngressParameters.k8s.example.com/external-lb', '5m'],
    ],
    ['an ingress class without parameters', ingressClassPrinter, object('nginx', { spec: { controller: 'c' } }), ['nginx', 'c', '<none>', '5m']],
    ['a network policy for all pods', networkPolicyPrinter, object('deny', { spec: { podSelector: {} } }), ['deny', '<none>', '5m']],
    [
      'a network policy for some pods',
      networkPolicyPrinter,
      object('web', { spec: { podSelector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['b', 'a'] }, { key: 'legacy', operator: 'DoesNotExist' }] } } }),
      ['web', 'app notin (a,b),!legacy', '5m'],
    ],
  ])('%s', (_what, printer, o, cells) => {
    expect(printer.row(o, NOW).cells).toEqual(cells);
  });
});
