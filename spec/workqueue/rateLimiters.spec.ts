import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import { ConfigError } from '../../lib/configError.js';
import { bucketRateLimiter } from '../../lib/workqueue/bucketRateLimiter.js';
import { defaultControllerRateLimiter } from '../../lib/workqueue/defaultControllerRateLimiter.js';
import { itemExponentialFailureRateLimiter } from '../../lib/workqueue/itemExponentialFailureRateLimiter.js';
import { itemFastSlowRateLimiter } from '../../lib/workqueue/itemFastSlowRateLimiter.js';
import { maxOfRateLimiter } from '../../lib/workqueue/maxOfRateLimiter.js';
import type { RateLimiter } from '../../lib/workqueue/rateLimiter.js';
import { workQueue } from '../../lib/workqueue/workQueue.js';
import { worker } from './support.js';

describe('rate limiters', () => {
  it('options a limiter cannot work with are a ConfigError when it is made', () => {
    expect(() => bucketRateLimiter({ qps: 0 })).toThrow(ConfigError);
    expect(() => bucketRateLimiter({ qps: -1 })).toThrow(/qps must be a number above 0 .*got -1/);
    expect(() => bucketRateLimiter({ burst: 0 })).toThrow(/burst must be a number >= 1, got 0/);
    expect(() => itemExponentialFailureRateLimiter({ baseMs: Number.NaN })).toThrow(/baseMs must be a number >= 0, got NaN/);
    expect(() => itemExponentialFailureRateLimiter({ maxMs: -5 })).toThrow(ConfigError);
    expect(() => itemFastSlowRateLimiter({ fastMs: 5, slowMs: '10' as unknown as number, maxFastAttempts: 3 })).toThrow(/slowMs must be a number >= 0, got "10"/);
    expect(bucketRateLimiter({ qps: 0.5, burst: 1 }).when('a', 0)).toBe(0); // the edges are fine
    expect(itemExponentialFailureRateLimiter({ baseMs: 0, maxMs: 0 }).when('a', 0)).toBe(0);
  });

  it('exponential: 5 ms doubling per item, capped, forget resets only that item', () => {
    const l = itemExponentialFailureRateLimiter<string>();
    expect([1, 2, 3, 4, 5].map(() => l.when('a', 0))).toEqual([5, 10, 20, 40, 80]);
    expect(l.when('b', 0)).toBe(5);
    expect(l.numRequeues('a')).toBe(5);
    l.forget('a');
    expect(l.numRequeues('a')).toBe(0);
    expect(l.when('a', 0)).toBe(5);
    expect(l.numRequeues('b')).toBe(1);
    // 5 ms * 2^n passes 1000 s at n = 18 and stays capped (also past 2^1024 = Infinity).
    const capped = itemExponentialFailureRateLimiter<string>();
    const delays = Array.from({ length: 1100 }, () => capped.when('x', 0));
    expect(delays[17]).toBe(5 * 2 ** 17);
    expect(delays[18]).toBe(1_000_000);
    expect(delays[1099]).toBe(1_000_000);
  });

  it('exponential: a base of 0 stays 0 past 2^1024 retries (0 * Infinity was NaN); an overflow is the max delay', () => {
    const zero = itemExponentialFailureRateLimiter<string>({ baseMs: 0 });
    const delays = Array.from({ length: 1100 }, () => zero.when('x', 0));
    expect(delays.filter((d) => d !== 0)).toEqual([]);
    const tiny = itemExponentialFailureRateLimiter<string>({ baseMs: Number.MIN_VALUE, maxMs: 7 });
    expect(Array.from({ length: 1100 }, () => tiny.when('x', 0))[1099]).toBe(7);
    // The bucket's wait for a token at a qps near 0 is too long for a number: Infinity, not NaN.
    const slow = bucketRateLimiter<string>({ qps: Number.MIN_VALUE, burst: 1 });
    expect([slow.when('x', 0), slow.when('x', 0), slow.when('x', 1e300)]).toEqual([0, Infinity, Infinity]);
  });

  it('token bucket: burst first, then one per 1/qps, refilled as time passes, up to the burst', () => {
    const l = bucketRateLimiter<string>({ qps: 10, burst: 2 });
    expect([0, 0, 0, 0, 0].map((t) => l.when('a', t))).toEqual([0, 0, 100, 200, 300]);
    // At 1000 ms: -3 tokens + 10 refilled = 7, capped at the burst 2.
    expect([1000, 1000, 1000].map((t) => l.when('b', t))).toEqual([0, 0, 100]);
    expect(l.numRequeues('a')).toBe(0);
    const d = bucketRateLimiter<string>();
    const burst = Array.from({ length: 101 }, () => d.when('k', 0));
    expect(burst.slice(0, 100).every((x) => x === 0)).toBe(true);
    expect(burst[100]).toBe(100);
  });

  it('fast-slow: fast for the first N retries of an item, then slow', () => {
    const l = itemFastSlowRateLimiter<string>({ fastMs: 1, slowMs: 100, maxFastAttempts: 2 });
    expect([1, 2, 3, 4].map(() => l.when('a', 0))).toEqual([1, 1, 100, 100]);
    expect(l.numRequeues('a')).toBe(4);
    l.forget('a');
    expect(l.when('a', 0)).toBe(1);
  });

  it('max-of: the longest delay; every limiter counts; forget forgets in all', () => {
    const l = maxOfRateLimiter(
      itemFastSlowRateLimiter<string>({ fastMs: 50, slowMs: 50, maxFastAttempts: 1 }),
      itemExponentialFailureRateLimiter<string>({ baseMs: 10 }),
    );
    expect([1, 2, 3, 4].map(() => l.when('a', 0))).toEqual([50, 50, 50, 80]);
    expect(l.numRequeues('a')).toBe(4);
    l.forget('a');
    expect(l.numRequeues('a')).toBe(0);
  });

  it('default controller limiter: per-item exponential, and the bucket once 100 retries are spent', () => {
    const l = defaultControllerRateLimiter<string>();
    expect([l.when('a', 0), l.when('a', 0), l.when('a', 0)]).toEqual([5, 10, 20]);
    for (let i = 0; i < 97; i++) l.when(`k${i}`, 0);
    expect(l.when('fresh', 0)).toBe(100); // the 101st retry at t=0 waits for a token
  });

  it('a custom limiter drives the queue (marble: retries at its delays)', () => {
    const ts = new TestScheduler((a, e) => expect(a).toEqual(e));
    ts.run(({ expectObservable }) => {
      const asked: Array<[string, number]> = [];
      const custom: RateLimiter<string> = {
        when: (item, now) => {
          asked.push([item, now]);
          return 7;
        },
        forget: () => {},
        numRequeues: () => 42,
      };
      const q = workQueue<string>({ scheduler: ts, rateLimiter: custom });
      q.addRateLimited('a');
      let n = 0;
      ts.schedule(() => q.shutDown(), 20);
      expectObservable(worker(q, ts, { after: (k) => (++n < 2 ? q.addRateLimited(k) : undefined) })).toBe(
        '7ms a 6ms a 5ms |',
      );
      ts.schedule(() => {
        expect(asked).toEqual([
          ['a', 0],
          ['a', 7],
        ]);
        expect(q.numRequeues('a')).toBe(42);
      }, 19);
    });
  });
});
