// Runs the controller example against the fake API server and checks what it concluded.
import { describe, expect, it } from '@jest/globals';
import { asyncScheduler } from 'rxjs';
import { runControllerExample } from './main.js';
import { describeStatus } from './deploymentController.js';

describe('controller example: Deployments and their Pods, indexed by owner', () => {
  it('follows pods starting, a scale-up, a failure and a deletion', async () => {
    let output = '';
    const statuses = await runControllerExample(
      { stepMs: 300 },
      { out: { write: (s: string) => (output += s) }, scheduler: asyncScheduler },
    );
    expect([...statuses.values()].map(describeStatus).sort()).toEqual([
      'blog/web: deleted',
      'shop/api: 3 desired, 3 pods (3 running, 0 pending, 0 failed)',
      'shop/web: 3 desired, 3 pods (2 running, 0 pending, 1 failed)',
    ]);
    // The first reconcile, after the caches synced, saw every pod through the owner indexes.
    expect(output).toContain('shop/web: 3 desired, 3 pods (0 running, 3 pending, 0 failed)');
    expect(output).toContain('shop/api: 3 desired, 3 pods (2 running, 1 pending, 0 failed)');
  });
});
