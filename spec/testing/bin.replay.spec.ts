// rxkube-fake-apiserver --replay FILE: a recording served from a shell.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, startFakeApiServerBin, BIN_START_TIMEOUT } from './fakeApiServerBin.js';
import { listedPod } from '../support/pods.js';

const pod = (name: string, rv: string) => listedPod(name, rv, { uid: `uid-${name}` });
const RECORDING = [
  { type: 'header', format: 'rxkube-traffic', version: 1, startedAt: '2026-01-01T00:00:00.000Z', streams: [{ resource: { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true }, namespace: 'ns' }] },
  { type: 'list', stream: 0, t: 0, resourceVersion: '5', items: [pod('a', '4'), pod('b', '5')] },
  { type: 'end', t: 10 },
]
  .map((e) => JSON.stringify(e))
  .join('\n');

// A test that starts the bin has its start bound and 30 s of its own.
jest.setTimeout(BIN_START_TIMEOUT + 30_000);

describe('rxkube-fake-apiserver --replay', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-bin-replay-'));
    writeFileSync(join(dir, 'rec.jsonl'), RECORDING);
    writeFileSync(join(dir, 'bad.jsonl'), '{"kind":"PodList"}\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the recording\'s objects', async () => {
    const { child, url, exited } = await startFakeApiServerBin(['--http', '--replay', join(dir, 'rec.jsonl')]);
    try {
      const list = (await (await fetch(`${url}/api/v1/namespaces/ns/pods`)).json()) as { items: Array<{ metadata: { name: string; uid: string } }> };
      expect(list.items.map((p) => [p.metadata.name, p.metadata.uid])).toEqual([
        ['a', 'uid-a'],
        ['b', 'uid-b'],
      ]);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('a file that is not a recording exits 2 and says why', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', BIN, '--http', '--replay', join(dir, 'bad.jsonl')]);
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(2);
    expect(err).toContain('not an rxkube traffic recording: line 1');
  });
});
