// Protobuf request bodies (application/vnd.kubernetes.protobuf) through client-node's TLS and
// credentials: decoded for the built-in types the tables know, a clear 415 otherwise.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { kubeRequest } from './kubeRequest.js';

// A minimal protobuf writer for the test inputs (the server has only a reader).
const varint = (n: number): number[] => {
  const out: number[] = [];
  let v = BigInt.asUintN(64, BigInt(n));
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v ? b | 0x80 : b);
  } while (v);
  return out;
};
const bytesField = (n: number, b: number[]): number[] => [...varint((n << 3) | 2), ...varint(b.length), ...b];
const str = (n: number, s: string): number[] => bytesField(n, [...Buffer.from(s)]);
const int = (n: number, v: number): number[] => [...varint(n << 3), ...varint(v)];
const mapEntry = (n: number, k: string, v: string): number[] => bytesField(n, [...str(1, k), ...str(2, v)]);
const envelope = (apiVersion: string, kind: string, raw: number[]): Buffer =>
  Buffer.from([0x6b, 0x38, 0x73, 0x00, ...bytesField(1, [...str(1, apiVersion), ...str(2, kind)]), ...bytesField(2, raw)]);
const PROTOBUF = { 'Content-Type': 'application/vnd.kubernetes.protobuf', Accept: 'application/vnd.kubernetes.protobuf, application/json' };

describe('fake API server: protobuf request bodies', () => {
  let api: FakeApiServer;
  let kc: KubeConfig;
  beforeEach(async () => {
    api = await startFakeApiServer();
    kc = api.kubeConfig();
  });
  afterEach(() => api.close());

  const post = (path: string, body: Buffer) => kubeRequest(kc, path, { method: 'POST', body, headers: PROTOBUF });

  it('a protobuf ConfigMap is stored as its JSON: metadata, labels, data and binaryData (base64); the answer is JSON', async () => {
    const meta = [...str(1, 'cm'), ...str(3, 'default'), ...mapEntry(11, 'app', 'web'), ...bytesField(8, [])];
    const raw = [...bytesField(1, meta), ...mapEntry(2, 'k', 'v'), ...bytesField(3, [...str(1, 'bin'), ...bytesField(2, [0, 1, 255])]), ...int(4, 0)];
    const res = await post('/api/v1/namespaces/default/configmaps', envelope('v1', 'ConfigMap', raw));
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    const cm = await kc.makeApiClient(CoreV1Api).readNamespacedConfigMap({ name: 'cm', namespace: 'default' });
    expect(cm.metadata?.labels).toEqual({ app: 'web' });
    expect(cm.data).toEqual({ k: 'v' });
    expect(cm.binaryData).toEqual({ bin: Buffer.from([0, 1, 255]).toString('base64') });
    expect(cm.immutable).toBe(false); // *bool: sent, so kept even when false
  });

  it('a protobuf PUT replaces the object', async () => {
    api.create('configmaps', { metadata: { name: 'cm', namespace: 'default' }, data: { a: '1' } });
    const rv = api.get('configmaps', 'default', 'cm')!.metadata.resourceVersion;
    const raw = [...bytesField(1, [...str(1, 'cm'), ...str(3, 'default'), ...str(6, rv)]), ...mapEntry(2, 'a', '2')];
    const res = await kubeRequest(kc, '/api/v1/namespaces/default/configmaps/cm', { method: 'PUT', body: envelope('v1', 'ConfigMap', raw), headers: PROTOBUF });
    expect(res.status).toBe(200);
    expect(api.get<{ data: object }>('configmaps', 'default', 'cm')!.data).toEqual({ a: '2' });
  });

  it('a protobuf body of a custom resource is the real server\'s 415 (custom resources take JSON and YAML only)', async () => {
    api.registerResource({ group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true });
    const res = await post('/apis/example.com/v1/namespaces/default/widgets', envelope('example.com/v1', 'Widget', bytesField(1, str(1, 'w'))));
    expect(res.status).toBe(415);
    expect(JSON.parse(res.text)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'UnsupportedMediaType',
      code: 415,
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
    });
  });

  it('a protobuf body of a kind without a field table is a 415 naming the kind, not a JSON parse error', async () => {
    const res = await post('/apis/apps/v1/namespaces/default/statefulsets', envelope('apps/v1', 'StatefulSet', bytesField(1, str(1, 's'))));
    expect(res.status).toBe(415);
    const status = JSON.parse(res.text);
    expect(status.reason).toBe('UnsupportedMediaType');
    expect(status.message).toContain('kind StatefulSet in apps/v1');
    expect(status.message).toContain('send it as application/json');
    expect(api.get('statefulsets.apps', 'default', 's')).toBeUndefined();
  });

  it('a field the tables lack (PodSpec affinity) is a 415 naming it, and nothing is stored: no field is silently dropped', async () => {
    const podSpec = [...bytesField(2, [...str(1, 'c'), ...str(2, 'nginx')]), ...bytesField(18, [])];
    const res = await post('/api/v1/namespaces/default/pods', envelope('v1', 'Pod', [...bytesField(1, str(1, 'p')), ...bytesField(2, podSpec)]));
    expect(res.status).toBe(415);
    expect(JSON.parse(res.text).message).toContain('field 18 of PodSpec');
    expect(api.get('pods', 'default', 'p')).toBeUndefined();
  });

  it('bytes that are not a Kubernetes protobuf body are a 400', async () => {
    const noMagic = await post('/api/v1/namespaces/default/configmaps', Buffer.from('{"metadata":{"name":"x"}}'));
    expect(noMagic.status).toBe(400);
    expect(JSON.parse(noMagic.text).message).toContain('k8s\\0 magic');
    const truncated = await post('/api/v1/namespaces/default/configmaps', Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x7f, 0x01]));
    expect(truncated.status).toBe(400);
    expect(JSON.parse(truncated.text).message).toContain('truncated');
  });

  it('a protobuf body whose kind is not the URL\'s is refused as a JSON one would be', async () => {
    const res = await post('/api/v1/namespaces/default/configmaps', envelope('v1', 'Secret', bytesField(1, str(1, 's'))));
    expect(res.status).toBe(400);
    expect(api.get('configmaps', 'default', 's')).toBeUndefined();
  });
});
