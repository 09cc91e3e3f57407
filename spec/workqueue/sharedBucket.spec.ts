// How the default limiter's shared bucket behaves under 409 conflicts (docs/workqueue.md): each
// rate-limited retry takes a token even when a watch event requeues the key at once, and the debt
// delays an unrelated key's first retry.
import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import { defaultControllerRateLimiter } from '../../lib/workqueue/defaultControllerRateLimiter.js';
import { itemExponentialFailureRateLimiter } from '../../lib/workqueue/itemExponentialFailureRateLimiter.js';
import type { RateLimiter } from '../../lib/workqueue/rateLimiter.js';
import { workQueue } from '../../lib/workqueue/workQueue.js';

const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/**
 * 300 keys each fail once with a conflict at t=0 (requeued rate-limited) and are requeued at once by
 * their watch event, then forgotten (they succeed); at t=0 too, an unrelated key fails: when is it
 * handed out again?
 */
function unrelatedRetryAt(rateLimiter: RateLimiter<string>): number {
  const ts = testScheduler();
  let at = -1;
  ts.run(() => {
    const q = workQueue<string>({ scheduler: ts, rateLimiter });
    for (let i = 0; i < 300; i++) {
      const key = `ns/c-${i}`;
      q.addRateLimited(key); // the reconcile threw on a 409
      q.add(key); // the watch event of the write that won: queued now
      expect(q.tryGet()?.key).toBe(key);
      q.forget(key); // the next reconcile succeeded
      q.done(key);
    }
    q.addRateLimited('ns/unrelated');
    const waiting = q.get$().subscribe(({ key }) => {
      at = ts.now();
      q.done(key);
    });
    ts.schedule(() => {
      waiting.unsubscribe();
      q.shutDown();
    }, 60_000);
  });
  return at;
}

describe("the default limiter's shared bucket under 409 conflicts", () => {
  it('every conflict takes a token though its key ran at once: 201 tokens short, an unrelated key waits 20.1 s', () => {
    // burst 100, 10 per second: the 301st token is 201 short.
    expect(unrelatedRetryAt(defaultControllerRateLimiter())).toBe(20_100);
  });

  it('per-item exponential backoff alone (controller-runtime priority queue default): 5 ms', () => {
    expect(unrelatedRetryAt(itemExponentialFailureRateLimiter())).toBe(5);
  });
});
