import { describe, expect, it } from '@jest/globals';
import { runHaDemo } from './main.js';

describe('examples/ha: failover live', () => {
  it('three replicas: each crash of the leader is followed by another leader, never two at once', async () => {
    const lines: string[] = [];
    const summary = await runHaDemo({ replicas: 3, durationMs: 12_000, out: { write: (s: string) => lines.push(s) } });
    expect(summary.failovers).toBeGreaterThanOrEqual(1);
    expect(summary.maxLeadersAtOnce).toBe(1);
    // Each takeover waits for the Lease to expire by the new leader's clock: at least leaseDuration - retryPeriod.
    for (const ms of summary.takeoverMs) expect(ms).toBeGreaterThan(2_000 - 300 - 50);
    expect(lines.at(-1)).toMatch(/done: \d+ failovers/);
  }, 60_000);
});
