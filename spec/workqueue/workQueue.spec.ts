import { describe, expect, it } from '@jest/globals';
import { asyncScheduler, mergeMap } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { LOW_PRIORITY, workQueue } from '../../lib/workqueue/workQueue.js';
import { NotInFlightError, QueueShutDownError } from '../../lib/workqueue/workQueueError.js';
import { itemExponentialFailureRateLimiter } from '../../lib/workqueue/itemExponentialFailureRateLimiter.js';
import type { WorkQueueMetricEvent } from '../../lib/workqueue/workQueueMetrics.js';
import { RecordingScheduler } from '../operators/recordingScheduler.js';
import { HeldKeys, worker } from './support.js';

const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('workQueue (marble tests, virtual time)', () => {
  it('queues a key once however often it is added before a worker takes it', () => {
    const ts = testScheduler();
    ts.run(({ expectObservable }) => {
      const q = workQueue<string>({ scheduler: ts });
      q.add('a');
      q.add('a');
      q.add('b');
      q.add('a');
      expect(q.len()).toBe(2);
      ts.schedule(() => q.shutDown(), 30);
      expectObservable(worker(q, ts, { holdMs: () => 10 })).toBe('a 9ms b 19ms |');
    });
  });

  it('a key added while a worker holds it is dirty: queued again on done, never to a second worker meanwhile', () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    ts.run(({ expectObservable }) => {
      const q = workQueue<string>({ scheduler: ts });
      q.add('a');
      ts.schedule(() => q.add('a'), 5);
      ts.schedule(() => q.add('a'), 6);
      ts.schedule(() => q.shutDown(), 40);
      // w1 holds a from 0 to 10; w2 waits; a goes to w2 (first waiting) only at 10.
      expectObservable(worker(q, ts, { holdMs: () => 10, held })).toBe('a 39ms |');
      expectObservable(worker(q, ts, { holdMs: () => 10, held })).toBe('10ms a 29ms |');
    });
    expect(held.violations).toEqual([]);
  });

  it('addAfter: the key is ready at the earliest time asked; an add now beats a pending delay', () => {
    const ts = testScheduler();
    ts.run(({ expectObservable }) => {
      const q = workQueue<string>({ scheduler: ts });
      q.addAfter('a', 50);
      q.addAfter('a', 20);
      q.addAfter('b', 10);
      q.addAfter('b', 30);
      q.addAfter('c', 60);
      ts.schedule(() => q.add('c'), 40);
      ts.schedule(() => q.shutDown(), 70);
      expectObservable(worker(q, ts)).toBe('10ms b 9ms a 19ms c 29ms |');
    });
  });

  it('addAfter with a delay of 0 or less adds now', () => {
    const ts = testScheduler();
    ts.run(() => {
      const q = workQueue<string>({ scheduler: ts });
      q.addAfter('a', 0);
      q.addAfter('b', -5);
      expect(q.len()).toBe(2);
    });
  });

  it('addRateLimited waits as the limiter says, counts requeues; forget resets them', () => {
    const ts = testScheduler();
    ts.run(({ expectObservable }) => {
      const q = workQueue<string>({ scheduler: ts, rateLimiter: itemExponentialFailureRateLimiter({ baseMs: 5 }) });
      let runs = 0;
      q.addRateLimited('a');
      // Fails three times (requeued rate-limited), then succeeds (forget).
      const after = (key: string) => {
        runs++;
        if (runs < 4) q.addRateLimited(key);
        else q.forget(key);
      };
      ts.schedule(() => expect(q.numRequeues('a')).toBe(3), 20);
      ts.schedule(() => {
        expect(q.numRequeues('a')).toBe(0);
        q.shutDown();
      }, 80);
      // ready at 5, then 5 + 10 = 15, 15 + 20 = 35, 35 + 40 = 75
      expectObservable(worker(q, ts, { after })).toBe('5ms a 9ms a 19ms a 39ms a 4ms |');
    });
  });

  it('priorities: the highest ready priority goes first, then the first added; a repeated add keeps the highest', () => {
    const ts = testScheduler();
    ts.run(({ expectObservable }) => {
      const q = workQueue<string>({ scheduler: ts });
      q.add('busy');
      q.add('low', { priority: LOW_PRIORITY });
      q.add('d1');
      q.add('d2');
      q.add('hi', { priority: 10 });
      q.add('raised', { priority: LOW_PRIORITY });
      q.add('raised', { priority: 5 });
      q.add('hi', { priority: LOW_PRIORITY }); // does not lower it
      ts.schedule(() => q.shutDown(), 100);
      // Each held 10 ms: hi (10), raised (5), then priority 0 in the order added, low last.
      const names = { h: 'hi', r: 'raised', b: 'busy', '1': 'd1', '2': 'd2', l: 'low' };
      expectObservable(worker(q, ts, { holdMs: () => 10 })).toBe('h 9ms r 9ms b 9ms 1 9ms 2 9ms l 49ms |', names);
    });
  });

  it('a delayed add of a key keeps the higher priority when it becomes ready', () => {
    const ts = testScheduler();
    ts.run(({ expectObservable }) => {
      const q = workQueue<string>({ scheduler: ts });
      q.add('b');
      q.addAfter('x', 10, { priority: LOW_PRIORITY });
      q.addAfter('x', 20, { priority: 7 });
      q.addAfter('y', 10);
      ts.schedule(() => q.shutDown(), 30);
      // The worker holds b until 15; then x (ready at 10, priority merged to 7) goes before y (0).
      expectObservable(worker(q, ts, { holdMs: (k) => (k === 'b' ? 15 : 0) })).toBe('b 14ms (xy) 11ms |');
    });
  });

  it('shutDown: waiting workers complete, delayed keys are dropped, add throws QueueShutDownError', () => {
    const ts = testScheduler();
    ts.run(({ expectObservable }) => {
      const q = workQueue<string>({ scheduler: ts, name: 'pods' });
      q.addAfter('late', 50);
      ts.schedule(() => {
        q.shutDown();
        q.shutDown(); // idempotent
        expect(q.shuttingDown()).toBe(true);
        expect(q.stats().waiting).toBe(0);
        expect(() => q.add('x')).toThrow(QueueShutDownError);
        expect(() => q.addRateLimited('x')).toThrow(/work queue "pods" is shut down/);
      }, 10);
      expectObservable(worker(q, ts)).toBe('10ms |');
      expectObservable(q.get$()).toBe('10ms |');
    });
  });

  it('done of a key no worker holds throws NotInFlightError (never got, queued only, or done twice)', () => {
    const q = workQueue<string>();
    expect(() => q.done('never')).toThrow(NotInFlightError);
    q.add('a');
    expect(() => q.done('a')).toThrow(NotInFlightError);
    const item = q.tryGet();
    expect(item).toEqual({ key: 'a', priority: 0 });
    q.done('a');
    expect(() => q.done('a')).toThrow(/no worker holds that key/);
  });

  it('shutDownWithDrain completes once every key in flight is done, and hands out nothing more', () => {
    const ts = testScheduler();
    ts.run(({ cold, expectObservable }) => {
      const q = workQueue<string>({ scheduler: ts });
      q.add('a');
      q.add('b');
      ts.schedule(() => q.add('a'), 2); // dirty: requeued on done, but nothing is handed out after shut down
      expectObservable(worker(q, ts, { holdMs: () => 10 })).toBe('a 9ms |');
      // Drain asked at 5, while a is held until 10.
      expectObservable(cold('5ms (x|)').pipe(mergeMap(() => q.shutDownWithDrain()))).toBe('10ms |');
    });
  });

  it('shutDown after shutDownWithDrain ends the drain at once, keys still in flight (client-go TestForceQueueShutdownUsingShutDown)', () => {
    const ts = testScheduler();
    ts.run(({ cold, expectObservable }) => {
      const q = workQueue<string>({ scheduler: ts });
      q.add('a');
      q.add('b');
      // Both held from 0 to 20; two drains asked at 5, shutDown at 8, another drain at 10.
      expectObservable(worker(q, ts, { holdMs: () => 20 })).toBe('a 19ms |');
      expectObservable(worker(q, ts, { holdMs: () => 20 })).toBe('b 19ms |');
      expectObservable(cold('5ms (x|)').pipe(mergeMap(() => q.shutDownWithDrain()))).toBe('8ms |');
      expectObservable(cold('5ms (x|)').pipe(mergeMap(() => q.shutDownWithDrain()))).toBe('8ms |');
      ts.schedule(() => q.shutDown(), 8);
      // A drain asked after shutDown waits again, as client-go's ShutDownWithDrain sets drain=true.
      expectObservable(cold('10ms (x|)').pipe(mergeMap(() => q.shutDownWithDrain()))).toBe('20ms |');
    });
  });

  it('addAfter(key, Infinity) arms no timer (one kept the process alive for ever); the key leaves by shutDown or an add sooner', () => {
    const s = new RecordingScheduler(1000);
    const q = workQueue<string>({ scheduler: s });
    q.addAfter('never', Infinity);
    expect(s.delays).toEqual([]);
    q.addAfter('soon', 10);
    expect(s.delays).toEqual([10]);
    s.advanceTo(10);
    expect(q.tryGet()?.key).toBe('soon');
    expect(s.actions).toHaveLength(0); // nothing re-armed for the Infinity key
    expect(q.stats().waiting).toBe(1);
    q.addAfter('never', 5); // sooner: it becomes ready
    s.advanceTo(15);
    expect(q.tryGet()?.key).toBe('never');
    q.addAfter('again', Infinity);
    expect(q.stats().waiting).toBe(1);
    q.shutDown();
    expect(q.stats().waiting).toBe(0);
    expect(s.actions).toHaveLength(0);
  });

  it('shutDownWithDrain with nothing in flight completes at once', () => {
    const ts = testScheduler();
    ts.run(({ expectObservable }) => {
      const q = workQueue<string>({ scheduler: ts });
      q.add('a');
      expectObservable(q.shutDownWithDrain()).toBe('|');
    });
  });

  it('stats and metrics$: adds, retries, queue and work durations, in-flight ages (client-go semantics)', () => {
    const ts = testScheduler();
    ts.run(() => {
      const q = workQueue<string>({ scheduler: ts, rateLimiter: itemExponentialFailureRateLimiter({ baseMs: 5 }) });
      const events: WorkQueueMetricEvent[] = [];
      q.metrics$.subscribe((e) => events.push(e));
      q.add('a');
      q.add('a'); // not counted: already dirty
      q.add('b');
      ts.schedule(() => {
        expect(q.tryGet()?.key).toBe('a'); // waited 10 ms
        q.add('a'); // dirty while held: counted, and in depth
        expect(q.stats()).toMatchObject({ depth: 2, ready: 1, inFlight: 1, addsTotal: 3 });
      }, 10);
      ts.schedule(() => {
        expect(q.stats()).toMatchObject({ unfinishedWorkSeconds: 0.03, longestRunningProcessorSeconds: 0.03 });
        expect(q.tryGet()?.key).toBe('b');
      }, 40);
      ts.schedule(() => {
        expect(q.stats().unfinishedWorkSeconds).toBeCloseTo(0.05 + 0.02);
        expect(q.stats().longestRunningProcessorSeconds).toBeCloseTo(0.05);
        q.done('a');
        q.addRateLimited('b');
        q.done('b');
      }, 60);
      ts.schedule(() => {
        expect(events).toEqual([
          { type: 'add' },
          { type: 'add' },
          { type: 'get', queueSeconds: 0.01 },
          { type: 'add' },
          { type: 'get', queueSeconds: 0.04 },
          { type: 'done', workSeconds: 0.05 },
          { type: 'retry' },
          { type: 'done', workSeconds: 0.02 },
          { type: 'add' }, // b, ready after its 5 ms
        ]);
        expect(q.stats()).toMatchObject({ depth: 2, ready: 2, inFlight: 0, addsTotal: 4, retriesTotal: 1 });
      }, 70);
    });
  });

  it('a synchronous worker over 100k keys does not grow the stack (the hand-off is a loop)', () => {
    const q = workQueue<string>();
    for (let i = 0; i < 100_000; i++) q.add(`k${i}`);
    let seen = 0;
    const sub = worker(q, asyncScheduler).subscribe(() => seen++);
    expect(seen).toBe(100_000);
    q.shutDown();
    sub.unsubscribe();
  });
});
