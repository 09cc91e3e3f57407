// Keeps README's first command true: the demo runs against the embedded fake API server, sees the
// churn, ends by itself, and its store converges to the server.
import { describe, expect, it } from '@jest/globals';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { asyncScheduler, firstValueFrom, timer } from 'rxjs';
import { runDemo, renderSummary } from './main.js';
import { parseDemoArgs } from './args.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realisticPod, startFakeApiServer } from 'rxkube/testing';

/** After the informer has synced (a second in), creates shop/mine through the given kubeconfig. */
async function createLater(file: string): Promise<void> {
  await firstValueFrom(timer(1_000));
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  await kc.makeApiClient(CoreV1Api).createNamespacedPod({
    namespace: 'shop',
    body: { metadata: { name: 'mine' }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
  });
}

describe('demo (npm start)', () => {
  it('runs briefly against the fake API server, sees the churn, converges and ends by itself', async () => {
    let output = '';
    const summary = await runDemo(
      { durationMs: 2_500, pods: 300, rate: 200, refreshMs: 500 },
      { out: { write: (s: string) => (output += s), isTTY: false }, scheduler: asyncScheduler },
    );
    expect(summary.source).toBe('fake');
    // The initial list: every seeded pod was added.
    expect(summary.events.add).toBeGreaterThanOrEqual(300);
    // The churn: changes were made and seen as updates and deletions.
    expect(summary.churn!.updated + summary.churn!.created + summary.churn!.deleted).toBeGreaterThan(0);
    expect(summary.events.update).toBeGreaterThan(0);
    expect(summary.events.delete).toBe(summary.churn!.deleted);
    // Both handlers were told of everything; the store equals the server.
    const [counter, auditor] = summary.handlers;
    expect(auditor.handled).toBe(counter.handled);
    expect(counter.handled).toBe(summary.events.add + summary.events.update + summary.events.delete);
    expect(summary.converged).toBe(true);
    expect(summary.objects).toBe(300 + summary.churn!.created - summary.churn!.deleted);
    expect(summary.namespaces).toBe(6);
    // Plain lines (not a terminal), then the summary.
    expect(output).toMatch(/\[\s*\d+s\] events\/s=\d+/);
    expect(output).toContain(renderSummary(summary));
    expect(output).not.toContain('\x1b[');
  });

  it('explains its status line once, and shows a change made with another client as such', async () => {
    let output = '';
    let outsider: Promise<unknown> | undefined;
    const summary = await runDemo(
      { durationMs: 3_000, pods: 60, rate: 50, refreshMs: 500 },
      {
        out: {
          write: (s: string) => {
            output += s;
            // The demo says where its kubeconfig is: change a pod through it, as kubectl would.
            const file = /--kubeconfig (\S+)/.exec(s)?.[1];
            if (file && !outsider) outsider = createLater(file);
          },
          isTTY: false,
        },
        scheduler: asyncScheduler,
      },
    );
    await outsider;
    expect(summary.converged).toBe(true);
    const lines = output.split('\n');
    expect(lines.filter((l) => l.startsWith('legend: '))).toHaveLength(1);
    expect(lines.findIndex((l) => l.startsWith('legend: '))).toBeLessThan(lines.findIndex((l) => /^\[\s*\d+s\]/.test(l)));
    // The outside change is named, once, and the demo's own churn is not reported as outside.
    const outside = lines.filter((l) => l.includes('outside: '));
    expect(outside).toHaveLength(1);
    expect(outside[0]).toMatch(/outside: [\d.]+s added shop\/mine \(/);
  });

  it('reads its options from the command line and KUBECONFIG', () => {
    expect(parseDemoArgs([], {}).options).toMatchObject({ durationMs: 20_000, pods: 3_000 });
    expect(parseDemoArgs(['--duration', '5', '--pods', '10'], {}).options).toMatchObject({
      durationMs: 5_000,
      pods: 10,
    });
    expect(parseDemoArgs([], { KUBECONFIG: '/tmp/a:/tmp/b' }).options.kubeconfig).toBe('/tmp/a');
    expect(parseDemoArgs(['--kubeconfig', '/k'], { KUBECONFIG: '/tmp/a' }).options.kubeconfig).toBe('/k');
    expect(() => parseDemoArgs(['--duration', 'soon'], {})).toThrow('--duration');
    expect(parseDemoArgs(['--help'], {}).help).toBe(true);
  });

  it('with --kubeconfig watches that cluster read-only: lists and watches, never writes', async () => {
    const api = await startFakeApiServer({ namespaces: ['shop'] });
    const dir = await mkdtemp(join(tmpdir(), 'rxkube-demo-'));
    try {
      for (let i = 0; i < 40; i++) api.create('pods', realisticPod(i, i % 2 ? 'kube-system' : 'default'));
      const file = join(dir, 'kubeconfig');
      await api.writeKubeConfig(file);
      let output = '';
      const summary = await runDemo(
        { durationMs: 1_500, refreshMs: 500, kubeconfig: file },
        { out: { write: (s: string) => (output += s) }, scheduler: asyncScheduler },
      );
      expect(summary.source).toBe('cluster');
      expect(summary.churn).toBeUndefined();
      expect(summary.converged).toBeUndefined();
      expect(summary.objects).toBe(40);
      expect(summary.events.add).toBe(40);
      expect(summary.namespaces).toBe(2);
      const verbs = new Set(api.requests.filter((r) => r.resource !== undefined).map((r) => r.verb));
      expect([...verbs].sort()).toEqual(['list', 'watch']);
      expect(output).toContain('cluster from kubeconfig (read-only)');
    } finally {
      await rm(dir, { recursive: true, force: true });
      await api.close();
    }
  });
});
