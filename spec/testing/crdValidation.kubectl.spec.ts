// CRD validation seen through a real kubectl (scripts/ensure-kubectl.sh; $KUBECTL wins): what a
// user sees when a CRD or a custom resource is refused. `--validate=false` because OpenAPI
// (which kubectl's default validation downloads) is another part of issue 25.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { findKubectl, kubectlRunner, type KubectlResult } from './kubectlRunner.js';

const crd = (specSchema: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  group: example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget }
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
${specSchema}
`;

const goodSpec = `            type: object
            x-kubernetes-validations:
            - rule: self.min <= self.max
              message: min must not exceed max
            properties:
              min: { type: integer }
              max: { type: integer, maximum: 10 }
              mode: { type: string, enum: [fast, slow] }`;

describe('kubectl sees the real refusals of CRD validation', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-crdval-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    api = await startFakeApiServer();
    await api.writeKubeConfig(join(dir, 'config'));
  });
  afterEach(() => api.close());

  const kubectlWith = async (file: string, text: string, ...a: string[]): Promise<KubectlResult> => {
    writeFileSync(join(dir, file), text);
    return kubectlRunner(kubectl, join(dir, 'config'), join(dir, 'cache'))(...a, '-f', join(dir, file));
  };

  it('kubectl create of a CRD whose property has no type: the 422, worded as kube-apiserver words it', async () => {
    const r = await kubectlWith('crd.yaml', crd('            properties: { x: { type: string } }'), 'create', '--validate=false');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'The CustomResourceDefinition "widgets.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
    );
  });

  it('kubectl create and apply --server-side of an invalid Widget list every cause, CEL rules included', async () => {
    expect((await kubectlWith('crd.yaml', crd(goodSpec), 'create', '--validate=false')).code).toBe(0);
    const widget = 'apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w1, namespace: default }\nspec: { min: 1, max: 20, mode: turbo }\n';
    const created = await kubectlWith('w.yaml', widget, 'create', '--validate=false');
    expect(created.code).toBe(1);
    expect(created.stderr).toContain('The Widget "w1" is invalid:');
    expect(created.stderr).toContain('* spec.max: Invalid value: 20: spec.max in body should be less than or equal to 10');
    expect(created.stderr).toContain('* spec.mode: Unsupported value: "turbo": supported values: "fast", "slow"');
    const rule = 'apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w1, namespace: default }\nspec: { min: 5, max: 2 }\n';
    const applied = await kubectlWith('w2.yaml', rule, 'apply', '--server-side', '--validate=false');
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('The Widget "w1" is invalid: spec: Invalid value: min must not exceed max');
  });
});
