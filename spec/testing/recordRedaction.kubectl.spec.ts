// A recording travels (into bug reports, into a repository): a Secret written by `kubectl apply`
// carries its values twice more than `data` (in the last-applied-configuration annotation, as data
// and stringData); recordTraffic blanks every copy and says in the header what it blanked. The
// Secret is applied with the real kubectl ($KUBECTL, PATH, or scripts/ensure-kubectl.sh).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import '../../lib/transport/clientNode.js'; // registers the KubeConfig transport, as importing 'rxkube' does
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { parseRecording, recordTraffic, startFakeApiServer, type FakeApiServer, type RecordingEntry } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';
import { findKubectl, kubectlRunner } from './kubectlRunner.js';

const PASSWORD = 'hunter2-plain-value';
const TOKEN = 'tok-3f9a-string-data';
const secretYaml = `apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: default
type: Opaque
data:
  password: ${Buffer.from(PASSWORD).toString('base64')}
stringData:
  token: ${TOKEN}
`;

describe('recordTraffic and a Secret written by kubectl apply', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-redact-'));
    api = await startFakeApiServer();
    await api.writeKubeConfig(join(dir, 'config'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('blanks the values in data, stringData and the last-applied annotation, keeps the keys, and names what it blanked', async () => {
    writeFileSync(join(dir, 'secret.yaml'), secretYaml);
    const applied = await kubectlRunner(kubectl, join(dir, 'config'), join(dir, 'cache'))('apply', '-f', join(dir, 'secret.yaml'));
    expect(applied).toMatchObject({ code: 0, stdout: 'secret/db created\n' });
    const stored = api.get<{ metadata: { annotations: Record<string, string> } }>('secrets', 'default', 'db')!;
    // The probe's finding: kubectl's annotation repeats the values.
    expect(stored.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toContain(TOKEN);

    const file = join(dir, 'traffic.jsonl');
    const rec = recordTraffic(api.kubeConfig(), [builtInResources.secrets], file);
    const seen: RecordingEntry[] = [];
    rec.entries$.subscribe((e) => seen.push(e));
    await api.waitForWatches(1, 'secrets');
    // A watch event carries the annotation too.
    api.patch('secrets', 'default', 'db', { metadata: { labels: { touched: 'yes' } } });
    await waitFor(() => seen.some((e) => e.type === 'event' && e.event.type === 'MODIFIED'), 'the MODIFIED event to be recorded');
    await rec.stop();

    const text = readFileSync(file, 'utf8');
    for (const value of [PASSWORD, TOKEN, Buffer.from(PASSWORD).toString('base64'), Buffer.from(TOKEN).toString('base64')]) expect(text).not.toContain(value);
    const recording = parseRecording(text);
    expect(recording.redacted).toEqual([
      { kind: 'Secret', fields: ['data', 'stringData', "metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] (its data and stringData)"] },
    ]);
    const objects = recording.entries.flatMap((e) => (e.type === 'list' ? e.items : e.event.type === 'MALFORMED' ? [] : [e.event.object])) as Array<{
      kind?: string;
      metadata: unknown;
      data?: Record<string, string>;
      stringData?: Record<string, string>;
    }>;
    expect(objects.length).toBeGreaterThanOrEqual(2);
    for (const o of objects) {
      // Keys kept, values blank (the server may hold the token in data or, not merged, in stringData).
      expect(o).toMatchObject({ kind: 'Secret', data: expect.objectContaining({ password: '' }) });
      expect([...Object.values(o.data ?? {}), ...Object.values(o.stringData ?? {})]).toEqual(expect.arrayContaining(['']));
      expect([...Object.values(o.data ?? {}), ...Object.values(o.stringData ?? {})].filter((v) => v !== '')).toEqual([]);
      expect([...Object.keys(o.data ?? {}), ...Object.keys(o.stringData ?? {})].sort()).toEqual(['password', 'token']);
      const lastApplied = JSON.parse((o.metadata as { annotations: Record<string, string> }).annotations['kubectl.kubernetes.io/last-applied-configuration']);
      expect(lastApplied).toMatchObject({ kind: 'Secret', metadata: { name: 'db' }, data: { password: '' }, stringData: { token: '' } });
    }
  });
});
