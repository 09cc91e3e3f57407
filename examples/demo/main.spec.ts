// Keeps README's first command true: the demo runs against the embedded fake API server, sees the
// churn, ends by itself, and its store converges to the server.
import { describe, expect, it } from '@jest/globals';
import { asyncScheduler } from 'rxjs';
import { runDemo, renderSummary } from './main.js';
import { parseDemoArgs } from './args.js';

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
});
