// controller-runtime's priority queue rules that rxkube got wrong (issue 28, section 4): a raised
// priority goes to the back of its new level, rate-limited + after waits the shorter, and a plain
// add never lowers a pending delayed entry's priority (queued or held by a worker).
import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import { itemExponentialFailureRateLimiter } from '../../lib/workqueue/itemExponentialFailureRateLimiter.js';
import { workQueue } from '../../lib/workqueue/workQueue.js';
import { worker } from './support.js';

const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('priority queue ordering (controller-runtime priorityqueue)', () => {
  it('a key whose priority rises goes to the back of its new level: add(foo,0), add(bar,1), add(foo,1) -> bar, foo', () => {
    const q = workQueue<string>();
    q.add('foo', { priority: 0 });
    q.add('bar', { priority: 1 });
    q.add('foo', { priority: 1 });
    expect(q.tryGet()).toEqual({ key: 'bar', priority: 1 });
    expect(q.tryGet()).toEqual({ key: 'foo', priority: 1 });
    expect(q.tryGet()).toBeUndefined();
  });

  it('an add at the same or a lower priority keeps the key where it is', () => {
    const q = workQueue<string>();
    q.add('foo', { priority: 1 });
    q.add('bar', { priority: 1 });
    q.add('foo', { priority: 1 });
    q.add('foo', { priority: 0 });
    expect(q.tryGet()?.key).toBe('foo');
    expect(q.tryGet()?.key).toBe('bar');
  });

  it('add(key, { rateLimited: true, after }) waits the SHORTER of after and the limiter delay (AddWithOpts)', () => {
    const ts = testScheduler();
    ts.run(({ expectObservable }) => {
      // The limiter says 5 ms for a first failure.
      const q = workQueue<string>({ scheduler: ts, rateLimiter: itemExponentialFailureRateLimiter({ baseMs: 5 }) });
      q.add('a', { rateLimited: true, after: 30 }); // min(30, 5) = 5
      q.add('b', { rateLimited: true, after: 1 }); // min(1, 5) = 1
      q.add('c', { rateLimited: true }); // no after: the limiter's 5
      ts.schedule(() => q.shutDown(), 40);
      expectObservable(worker(q, ts)).toBe('1ms b 3ms (ac) 31ms |');
    });
  });

  it('a plain add does not drop a pending delayed entry of higher priority (the higher priority wins)', () => {
    const q = workQueue<string>();
    q.add('k', { priority: -1, after: 29 });
    q.add('k', { priority: -2 });
    expect(q.tryGet()).toEqual({ key: 'k', priority: -1 });
  });

  it('the same while the key is held by a worker: handed out again at the higher priority once done', () => {
    const q = workQueue<string>();
    q.add('k');
    expect(q.tryGet()?.key).toBe('k'); // held
    q.add('k', { priority: -1, after: 29 });
    q.add('k', { priority: -2 });
    q.done('k');
    expect(q.tryGet()).toEqual({ key: 'k', priority: -1 });
  });

  it('stats().depthByPriority counts queued keys per priority level (ready, and dirty while held), moving a raised key', () => {
    const q = workQueue<string>();
    q.add('a');
    q.add('b', { priority: -100 });
    q.add('c', { priority: -100 });
    expect(q.stats().depthByPriority).toEqual(new Map([[0, 1], [-100, 2]]));
    q.add('c', { priority: 5 }); // raised: moves level
    expect(q.stats().depthByPriority).toEqual(new Map([[0, 1], [-100, 1], [5, 1]]));
    expect(q.tryGet()?.key).toBe('c'); // handed out: no longer counted
    q.add('c', { priority: 2 }); // dirty while held: counted at its level
    expect(q.stats().depthByPriority).toEqual(new Map([[0, 1], [-100, 1], [2, 1]]));
    q.addAfter('d', 1000, { priority: 9 }); // waiting: not in the depth yet
    expect(q.stats().depthByPriority.get(9)).toBeUndefined();
    expect(q.stats().depth).toBe(3);
    q.shutDown();
  });
});
