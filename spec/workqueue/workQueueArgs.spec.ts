import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import { ConfigError } from '../../lib/configError.js';
import { bucketRateLimiter } from '../../lib/workqueue/bucketRateLimiter.js';
import { itemExponentialFailureRateLimiter } from '../../lib/workqueue/itemExponentialFailureRateLimiter.js';
import { maxOfRateLimiter } from '../../lib/workqueue/maxOfRateLimiter.js';
import type { RateLimiter } from '../../lib/workqueue/rateLimiter.js';
import { workQueue } from '../../lib/workqueue/workQueue.js';
import {
  InvalidDelayError,
  InvalidPriorityError,
  NotInFlightError,
  QueueShutDownError,
} from '../../lib/workqueue/workQueueError.js';
import type { WorkQueueMetricEvent } from '../../lib/workqueue/workQueueMetrics.js';

// A limiter that returns the delays given, in turn, and counts how often it was asked.
const scripted = (...delays: unknown[]): RateLimiter<string> & { asked: number } => {
  const limiter = {
    asked: 0,
    when: () => delays[limiter.asked++] as number,
    forget: () => {},
    numRequeues: () => limiter.asked,
  };
  return limiter;
};

const thrown = (f: () => void): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('workQueue arguments (bad ones are typed errors and add nothing)', () => {
  it('a priority that is not a finite number is an InvalidPriorityError from add, addAfter and addRateLimited (NaN stranded the key)', () => {
    const limiter = scripted(0);
    const q = workQueue<string>({ name: 'pods', scheduler: new TestScheduler(() => {}), rateLimiter: limiter });
    expect(() => q.add('p', { priority: Number.NaN })).toThrow(InvalidPriorityError);
    expect(() => q.add('p', { priority: '5' as unknown as number })).toThrow(
      /work queue "pods": "p" was not added: the priority "5" is not a finite number/,
    );
    expect(() => q.add('p', { priority: Infinity })).toThrow(InvalidPriorityError);
    expect(() => q.addAfter('p', 5, { priority: Number.NaN })).toThrow(InvalidPriorityError);
    expect(() => q.addRateLimited('p', { priority: -Infinity })).toThrow(InvalidPriorityError);
    expect(q.stats()).toMatchObject({ ready: 0, waiting: 0, addsTotal: 0, retriesTotal: 0 });
    expect(limiter.asked).toBe(0);
    // The key is not stranded: a good add queues it and it is handed out.
    q.add('p', { priority: null as unknown as number }); // null is the default, 0
    expect(q.len()).toBe(1);
    expect(q.tryGet()).toEqual({ key: 'p', priority: 0 });
    expect(thrown(() => q.add('q', { priority: Number.NaN }))).toMatchObject({
      code: 'InvalidPriorityError',
      key: 'q',
      priority: Number.NaN,
    });
  });

  it('addAfter without a delay (undefined, null) is an InvalidDelayError, not an add now', () => {
    const q = workQueue<string>({ scheduler: new TestScheduler(() => {}) });
    const addAfter = q.addAfter as (key: string, ms?: unknown) => void;
    expect(() => addAfter('a')).toThrow(InvalidDelayError);
    expect(() => addAfter('a', null)).toThrow(/addAfter gave the delay null, which is not a number of milliseconds/);
    expect(q.stats()).toMatchObject({ ready: 0, waiting: 0 });
    q.add('b', { after: undefined }); // `after` is optional in add: now
    expect(q.len()).toBe(1);
  });

  it('addRateLimited: a bad priority is refused before the limiter is asked; a bad delay from it leaves no half-added key', () => {
    const limiter = scripted(Number.NaN, 3);
    const ts = new TestScheduler(() => {});
    const q = workQueue<string>({ scheduler: ts, rateLimiter: limiter });
    const events: WorkQueueMetricEvent[] = [];
    q.metrics$.subscribe((e) => events.push(e));
    expect(() => q.add('a', { rateLimited: true, priority: Number.NaN })).toThrow(InvalidPriorityError);
    expect(() => q.add('a', { rateLimited: true, after: Number.NaN })).toThrow(InvalidDelayError);
    expect(limiter.asked).toBe(0);
    expect(() => q.addRateLimited('a')).toThrow(/its rate limiter gave the delay NaN/);
    expect(limiter.asked).toBe(1); // counted, as documented: it cannot be taken back
    expect(q.stats()).toMatchObject({ ready: 0, waiting: 0, inFlight: 0, retriesTotal: 0, addsTotal: 0 });
    expect(events).toEqual([]);
    q.addRateLimited('a'); // the next retry works as usual
    ts.flush();
    expect(q.tryGet()).toEqual({ key: 'a', priority: 0 });
    expect(events).toEqual([{ type: 'retry' }, { type: 'add' }, { type: 'get', queueSeconds: 0 }]);
  });

  it('errors about a null-prototype key, delay or priority are typed errors, not TypeErrors', () => {
    const key = Object.create(null) as object;
    const q = workQueue<object>({ scheduler: new TestScheduler(() => {}) });
    expect(() => q.done(key)).toThrow(NotInFlightError);
    expect(() => q.addAfter(key, Object.create(null) as number)).toThrow(
      /"\[object Object\]" was not added: addAfter gave the delay \[object Object\]/,
    );
    expect(() => q.add(key, { priority: Object.create(null) as number })).toThrow(InvalidPriorityError);
    q.shutDown();
    expect(() => q.add(key)).toThrow(QueueShutDownError);
    expect(() => bucketRateLimiter({ qps: Object.create(null) as number })).toThrow(ConfigError);
  });

  it('null options are the defaults (add, addAfter, addRateLimited, workQueue, the limiters); maxOfRateLimiter(null) is a ConfigError', () => {
    const q = workQueue<string>(null);
    q.add('a', null);
    q.addRateLimited('b', null); // default limiter: the first retry of b waits 5 ms
    expect(q.tryGet()).toEqual({ key: 'a', priority: 0 });
    expect(q.numRequeues('b')).toBe(1);
    const ts = new TestScheduler(() => {});
    const late = workQueue<string>({ scheduler: ts });
    late.addAfter('c', 10, null);
    ts.flush();
    expect(late.tryGet()).toEqual({ key: 'c', priority: 0 });
    expect(bucketRateLimiter<string>(null).when('x', 0)).toBe(0);
    expect(itemExponentialFailureRateLimiter<string>(null).when('x', 0)).toBe(5);
    expect(() => maxOfRateLimiter<string>(null as unknown as RateLimiter<string>)).toThrow(
      /maxOfRateLimiter: limiters\[0\] must be a rate limiter \(an object with when, forget and numRequeues functions\), got null/,
    );
    expect(() => workQueue<string>({ rateLimiter: {} as RateLimiter<string> })).toThrow(ConfigError);
    q.shutDown();
  });
});
