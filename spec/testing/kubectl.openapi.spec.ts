// kubectl's default validation (--validate=strict) and kubectl explain read the fake server's OpenAPI.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { findKubectl, kubectlRunner, type KubectlResult } from './kubectlRunner.js';

const LEASE = `apiVersion: coordination.k8s.io/v1
kind: Lease
metadata:
  name: leader
  namespace: default
spec:
  holderIdentity: pod-a
  leaseDurationSeconds: 15
`;
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`;
const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: A Widget is a thing with a size.
        properties:
          spec:
            type: object
            description: The desired widget.
            properties:
              size: {type: integer, description: How big the widget is.}
`;
const WIDGET = `apiVersion: example.com/v1
kind: Widget
metadata: {name: w1, namespace: default}
spec: {size: 3}
`;

describe('kubectl and the fake server\'s OpenAPI', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  let run: (...args: string[]) => Promise<KubectlResult>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-kubectl-openapi-'));
    for (const [f, text] of Object.entries({ 'lease.yaml': LEASE, 'deployment.yaml': DEPLOYMENT, 'crd.yaml': CRD, 'widget.yaml': WIDGET })) writeFileSync(join(dir, f), text);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    api = await startFakeApiServer();
    await api.writeKubeConfig(join(dir, 'config'));
    rmSync(join(dir, 'cache'), { recursive: true, force: true });
    run = kubectlRunner(kubectl, join(dir, 'config'), join(dir, 'cache'));
  });
  afterEach(() => api.close());

  const ok = async (...args: string[]): Promise<string> => {
    const r = await run(...args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return r.stdout;
  };

  it('kubectl create -f lease.yaml with the default validation creates the Lease (it downloads /openapi/v3)', async () => {
    expect((await ok('create', '-f', join(dir, 'lease.yaml'))).trim()).toBe('lease.coordination.k8s.io/leader created');
    expect(api.get<{ spec: { holderIdentity: string } }>('leases.coordination.k8s.io', 'default', 'leader')?.spec.holderIdentity).toBe('pod-a');
    expect(api.requests.some((r) => r.path.startsWith('/openapi/v3/apis/coordination.k8s.io/v1'))).toBe(true);
    // The PATCH operation offers fieldValidation, so kubectl leaves validation to the server and says so.
    expect(api.requests.find((r) => r.verb === 'create' && r.path.includes('leases'))?.query.fieldValidation).toBe('Strict');
  });

  it('kubectl create -f with a misspelt field fails as on a real cluster (the server validates, strictly)', async () => {
    writeFileSync(join(dir, 'typo.yaml'), LEASE.replace('holderIdentity', 'holderIdentiti'));
    const r = await run('create', '-f', join(dir, 'typo.yaml'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Lease in version "v1" cannot be handled as a Lease: strict decoding error: unknown field "spec.holderIdentiti"');
    expect(api.get('leases.coordination.k8s.io', 'default', 'leader')).toBeUndefined();
    const warned = await run('create', '--validate=warn', '-f', join(dir, 'typo.yaml'));
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('Warning: unknown field "spec.holderIdentiti"');
  });

  it('kubectl apply -f creates, then configures, with the default validation', async () => {
    expect((await ok('apply', '-f', join(dir, 'deployment.yaml'))).trim()).toBe('deployment.apps/web created');
    writeFileSync(join(dir, 'deployment2.yaml'), DEPLOYMENT.replace('replicas: 2', 'replicas: 4'));
    expect((await ok('apply', '-f', join(dir, 'deployment2.yaml'))).trim()).toBe('deployment.apps/web configured');
    expect(api.get<{ spec: { replicas: number } }>('deployments.apps', 'default', 'web')?.spec.replicas).toBe(4);
  });

  it('kubectl explain pods.spec prints the fields with their types and descriptions', async () => {
    const out = await ok('explain', 'pods.spec');
    expect(out).toContain('KIND:       Pod');
    expect(out).toContain('FIELD: spec <PodSpec>');
    expect(out).toMatch(/containers\t<\[\]Container> -required-\n\s+List of containers belonging to the pod\./);
    expect(out).toMatch(/restartPolicy\t<string>/);
  });

  it('kubectl explain --output=plaintext-openapiv2 reads /openapi/v2 as gnostic protobuf', async () => {
    const out = await ok('explain', 'pods.spec.containers', '--output=plaintext-openapiv2');
    expect(out).toContain('RESOURCE: containers <[]Object>');
    expect(out).toContain('List of containers belonging to the pod.');
    expect(out).toMatch(/FIELDS:\n\s+args\t<\[\]string>/);
  });

  it('kubectl explain deployments.spec.replicas reaches nested fields of another group', async () => {
    const out = await ok('explain', 'deployments.spec.replicas');
    expect(out).toContain('GROUP:      apps');
    expect(out).toContain('FIELD: replicas <integer>');
  });

  it('a CRD created with kubectl create -f is explained from its schema, and its objects pass default validation', async () => {
    await ok('create', '-f', join(dir, 'crd.yaml'));
    const out = await ok('explain', 'widgets');
    expect(out).toContain('GROUP:      example.com');
    expect(out).toContain('A Widget is a thing with a size.');
    expect(out).toMatch(/spec\t<Object>\n\s+The desired widget\./);
    expect(await ok('explain', 'widgets.spec.size')).toMatch(/FIELD: size <integer>\n[\s\S]*How big the widget is\./);
    expect((await ok('create', '-f', join(dir, 'widget.yaml'))).trim()).toBe('widget.example.com/w1 created');
  });
});
