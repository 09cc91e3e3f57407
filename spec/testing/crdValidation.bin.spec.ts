// The fake API server bin refuses a CRD file the server would refuse, saying why (not a stack trace).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, BIN_START_TIMEOUT } from './fakeApiServerBin.js';

describe('rxkube-fake-apiserver --crd with a CRD the server refuses', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-crdbin-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 2 with the 422 message of the non-structural schema', async () => {
    const file = join(dir, 'crd.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: apiextensions.k8s.io/v1',
        'kind: CustomResourceDefinition',
        'metadata: { name: widgets.example.com }',
        'spec:',
        '  group: example.com',
        '  scope: Namespaced',
        '  names: { plural: widgets, kind: Widget }',
        '  versions:',
        '  - { name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object, properties: { spec: {} } } } }',
        '',
      ].join('\n'),
    );
    const { code, err } = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const c = spawn(process.execPath, ['--import', 'tsx', BIN, '--http', '--crd', file]);
      let err = '';
      c.stderr.on('data', (d: Buffer) => (err += d.toString()));
      c.once('exit', (code) => resolve({ code, err }));
    });
    expect(code).toBe(2);
    expect(err).toContain(
      `rxkube-fake-apiserver: --crd ${file}: 422 Invalid: CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields`,
    );
  }, BIN_START_TIMEOUT + 30_000); // the bin loads (through tsx) before it refuses
});
