// ConfigMap, Secret, Namespace, PersistentVolumeClaim, Endpoints, EndpointSlice: kube's defaults,
// validation and immutability, each expectation from kube 1.34's sources.
import { describe, expect, it } from '@jest/globals';
import type { JsonObject } from '../../../lib/testing/fakeApiServer/resources.js';
import { createCauses, defaulted, fakeAllocators, rulesOf, updateCauses } from './ruleSupport.js';

const cm = (body: JsonObject): JsonObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, ...body });
const secret = (body: JsonObject): JsonObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, ...body });

describe('ConfigMap', () => {
  it('keys must be config keys and not repeat in binaryData', () => {
    expect(createCauses('configmaps', cm({ data: { 'a b': '1', x: '1' }, binaryData: { x: 'AA==' } }))).toEqual([
      "data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      'data[x]: Invalid value: "x": duplicate of key present in binaryData',
    ]);
  });

  it('more than 1 MiB in all is too long', () => {
    expect(createCauses('configmaps', cm({ data: { a: 'x'.repeat(1024 * 1024 + 1) } }))).toEqual([': Too long: may not be more than 1048576 bytes']);
  });

  it('an immutable ConfigMap keeps its data and stays immutable', () => {
    const old = cm({ immutable: true, data: { a: '1' } });
    expect(updateCauses('configmaps', cm({ immutable: true, data: { a: '1' } }), old)).toEqual([]);
    expect(updateCauses('configmaps', cm({ immutable: true, data: { a: '2' } }), old)).toEqual(['data: Forbidden: field is immutable when `immutable` is set']);
    expect(updateCauses('configmaps', cm({ data: { a: '1' } }), old)).toEqual(['immutable: Forbidden: field is immutable when `immutable` is set']);
    expect(updateCauses('configmaps', cm({ immutable: true, data: { a: '1' }, binaryData: { b: 'AA==' } }), old)).toEqual(['binaryData: Forbidden: field is immutable when `immutable` is set']);
    expect(updateCauses('configmaps', cm({ data: { a: '2' } }), cm({ data: { a: '1' } }))).toEqual([]);
  });
});

describe('Secret', () => {
  it('type defaults to Opaque; stringData is merged into data as base64, winning, and dropped', () => {
    expect(defaulted('secrets', secret({ data: { user: 'YWRtaW4=', pass: 'b2xk' }, stringData: { pass: 'hunter2' } }))).toEqual(
      secret({ type: 'Opaque', data: { user: 'YWRtaW4=', pass: 'aHVudGVyMg==' } }),
    );
  });

  it('data that is not base64 fails decoding with kube\'s 400', () => {
    expect(() => defaulted('secrets', secret({ data: { a: 'not base64!' } }))).toThrow(
      expect.objectContaining({ status: expect.objectContaining({ code: 400, message: 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3' }) }),
    );
  });

  it.each([
    ['kubernetes.io/tls', {}, ['data[tls.crt]: Required value', 'data[tls.key]: Required value']],
    ['kubernetes.io/basic-auth', {}, ['data[username]: Required value', 'data[password]: Required value']],
    ['kubernetes.io/dockerconfigjson', { '.dockerconfigjson': Buffer.from('x').toString('base64') }, ["data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": invalid character 'x' looking for beginning of value"]],
    ['kubernetes.io/dockercfg', { '.dockercfg': Buffer.from('[]').toString('base64') }, ['data[.dockercfg]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}']],
    ['kubernetes.io/service-account-token', {}, ['metadata.annotations[kubernetes.io/service-account.name]: Required value']],
  ])('type %s requires its keys', (type, data, expected) => {
    expect(createCauses('secrets', secret({ type, data }))).toEqual(expected);
  });

  it('type is immutable, and so is an immutable Secret\'s data', () => {
    const old = secret({ type: 'Opaque', immutable: true, data: { a: 'MQ==' } });
    expect(updateCauses('secrets', secret({ type: 'kubernetes.io/tls', immutable: true, data: { a: 'MQ==', 'tls.crt': '', 'tls.key': '' } }), old)).toEqual([
      'type: Invalid value: "kubernetes.io/tls": field is immutable',
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
    expect(updateCauses('secrets', secret({ immutable: true, stringData: { a: '2' } }), old)).toEqual(['data: Forbidden: field is immutable when `immutable` is set']);
  });
});

describe('Namespace', () => {
  it('is labelled with its name, Active, and created with the kubernetes finalizer', () => {
    const ns = defaulted('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'other' } } });
    expect(rulesOf('namespaces').allocate?.(ns, undefined, fakeAllocators())).toEqual([]);
    expect(ns).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'team-a' } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  });

  it('a generated name is labelled once it is known (allocate runs after name generation)', () => {
    const ns = defaulted('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { generateName: 'tmp-' } });
    expect(ns.metadata).toEqual({ generateName: 'tmp-' });
    (ns.metadata as JsonObject).name = 'tmp-x7k2p';
    rulesOf('namespaces').allocate?.(ns, undefined, fakeAllocators());
    expect(ns.metadata).toEqual({ generateName: 'tmp-', name: 'tmp-x7k2p', labels: { 'kubernetes.io/metadata.name': 'tmp-x7k2p' } });
  });

  it('finalizers are standard or fully qualified', () => {
    expect(createCauses('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' }, spec: { finalizers: ['custom', 'example.com/x'] } })).toEqual([
      'spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });
});

describe('PersistentVolumeClaim', () => {
  const pvc = (spec: JsonObject, status?: JsonObject): JsonObject => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec, ...(status ? { status } : {}) });
  const claim = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1024Mi' } } };

  it('volumeMode Filesystem, phase Pending, storage in canonical form', () => {
    expect(defaulted('persistentvolumeclaims', pvc(claim))).toEqual(
      pvc({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' }, { phase: 'Pending' }),
    );
  });

  it('access modes and a storage request are required', () => {
    expect(createCauses('persistentvolumeclaims', pvc({}))).toEqual(['spec.accessModes: Required value: at least 1 access mode is required', 'spec.resources[storage]: Required value']);
    expect(createCauses('persistentvolumeclaims', pvc({ ...claim, accessModes: ['ReadWriteSome'] }))).toEqual([
      'spec.accessModes: Unsupported value: "ReadWriteSome": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
    ]);
  });

  it('the spec is immutable but for a bound claim\'s storage request', () => {
    const old = pvc(claim, { phase: 'Pending' });
    expect(updateCauses('persistentvolumeclaims', pvc({ ...claim, accessModes: ['ReadWriteMany'] }), old)).toEqual([
      'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    ]);
    expect(updateCauses('persistentvolumeclaims', pvc({ ...claim, resources: { requests: { storage: '2Gi' } } }), old)).toEqual([
      'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    ]);
    const bound = pvc({ ...claim, volumeName: 'pv-1' }, { phase: 'Bound', capacity: { storage: '1Gi' } });
    expect(updateCauses('persistentvolumeclaims', pvc({ ...claim, volumeName: 'pv-1', resources: { requests: { storage: '2Gi' } } }, { phase: 'Bound' }), bound)).toEqual([]);
    expect(updateCauses('persistentvolumeclaims', pvc({ ...claim, volumeName: 'pv-1', resources: { requests: { storage: '512Mi' } } }, { phase: 'Bound' }), bound)).toEqual([
      'spec.resources.requests.storage: Forbidden: field can not be less than status.capacity',
    ]);
    expect(updateCauses('persistentvolumeclaims', pvc({ ...claim, volumeName: 'pv-9' }), old)).toEqual([]);
  });
});

describe('Endpoints and EndpointSlices', () => {
  it('ports default to TCP (and a slice port\'s name to "")', () => {
    expect(defaulted('endpoints', { subsets: [{ addresses: [{ ip: '10.1.0.4' }], ports: [{ port: 80 }] }] }).subsets).toEqual([{ addresses: [{ ip: '10.1.0.4' }], ports: [{ port: 80, protocol: 'TCP' }] }]);
    expect(defaulted('endpointslices.discovery.k8s.io', { ports: [{ port: 80 }] }).ports).toEqual([{ port: 80, name: '', protocol: 'TCP' }]);
  });

  it('addresses must be routable and ports valid; unchanged subsets are not re-validated on update', () => {
    const bad = { subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: 0 }, { name: 'b', port: 1 }] }] };
    expect(createCauses('endpoints', bad)).toEqual([
      'subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'subsets[0].ports[0].name: Required value',
      'subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
    expect(updateCauses('endpoints', bad, bad)).toEqual([]);
  });
});
