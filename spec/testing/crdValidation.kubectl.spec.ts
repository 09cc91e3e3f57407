// CRD validation seen through a real kubectl (scripts/ensure-kubectl.sh; $KUBECTL wins): what a
// user sees when a CRD or a custom resource is refused. `--validate=false` because OpenAPI
// (which kubectl's default validation downloads) is another part of issue 25.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

const execFileP = promisify(execFile);

function kubectlPath(): string {
  if (process.env.KUBECTL) return process.env.KUBECTL;
  const out = execFileSync('bash', [join(process.cwd(), 'scripts', 'ensure-kubectl.sh')], { encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'inherit'] });
  return out.trim().split('\n').pop() ?? '';
}

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
  let kubectl: string;
  let dir: string;
  let api: FakeApiServer;
  beforeAll(() => {
    kubectl = kubectlPath();
    dir = mkdtempSync(join(tmpdir(), 'rxkube-crdval-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    api = await startFakeApiServer();
    await api.writeKubeConfig(join(dir, 'config'));
  });
  afterEach(() => api.close());

  const kubectlWith = async (file: string, text: string, ...a: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    writeFileSync(join(dir, file), text);
    const argv = ['--kubeconfig', join(dir, 'config'), '--cache-dir', join(dir, 'cache'), '--request-timeout=20s', ...a, '-f', join(dir, file)];
    try {
      const { stdout, stderr } = await execFileP(kubectl, argv, { timeout: 30000, encoding: 'utf8' });
      return { code: 0, stdout, stderr };
    } catch (e) {
      const err = e as { code: number; stdout: string; stderr: string };
      return { code: err.code, stdout: err.stdout, stderr: err.stderr };
    }
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
