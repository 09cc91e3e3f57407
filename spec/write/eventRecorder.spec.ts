import { describe, expect, it } from '@jest/globals';
import { of, throwError, timer, mergeMap, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { eventRecorder, type EventInput, type EventRecordError, type JsonPatchOperation, type KubeEvent } from '../../lib/index.js';

const regarding = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web', uid: 'u1', resourceVersion: '1' };
const labelled: EventInput = { type: 'Normal', reason: 'Labelled', action: 'Patch', note: '3 ready', regarding };

type Call = { t: number; op: 'create' | 'patch'; name: string; count?: number };

/** An HTTP-ish failure (client-node's ApiException carries `code`, rxkube's errors `statusCode`). */
class Failure extends Error {
  constructor(readonly code?: number, readonly statusCode?: number) {
    super(`failed with ${code ?? statusCode ?? 'no status'}`);
  }
}

/** A sink answering after `latency` ms of virtual time; `fail(call)` may turn a call into an error. */
function fakeSink(ts: TestScheduler, latency: number, fail: (c: Call, n: number) => Error | undefined = () => undefined) {
  const calls: Call[] = [];
  const answer = (c: Call): Observable<unknown> => {
    calls.push(c);
    const err = fail(c, calls.length);
    return timer(latency, ts).pipe(mergeMap(() => (err ? throwError(() => err) : [c])));
  };
  return {
    calls,
    sink: {
      create: (_ns: string, ev: KubeEvent) => answer({ t: ts.now(), op: 'create', name: ev.metadata.name, count: ev.series?.count }),
      patch: (_ns: string, name: string, body: JsonPatchOperation[]) =>
        answer({ t: ts.now(), op: 'patch', name, count: ((body[0] as { value: { count: number } }).value).count }),
    },
  };
}

const newScheduler = () => new TestScheduler((a, b) => expect(a).toEqual(b));

describe('eventRecorder (virtual time)', () => {
  it('creates the first occurrence; repeats in the window join its series, merged while a write is in flight', () => {
    const ts = newScheduler();
    ts.run(({ flush }) => {
      const { calls, sink } = fakeSink(ts, 10);
      const r = eventRecorder({ sink, reportingController: 'c', reportingInstance: 'i', scheduler: ts });
      const written: Array<[number, number]> = [];
      r.written$.subscribe((e) => written.push([ts.now(), e.series?.count ?? 1]));
      for (const t of [0, 1, 5, 30]) ts.schedule(() => r.publish({ ...labelled, regarding: { ...regarding, resourceVersion: String(t) } }), t);
      ts.schedule(() => r.publish({ ...labelled, note: 'other note' }), 2);
      flush();
      const name = calls[0].name;
      expect(name).toMatch(/^web\.[0-9a-f]+$/);
      expect(calls.filter((c) => c.name === name)).toEqual([
        { t: 0, op: 'create', name, count: undefined },
        { t: 10, op: 'patch', name, count: 3 }, // 1 and 5 arrived during the create: one write
        { t: 30, op: 'patch', name, count: 4 },
      ]);
      expect(calls.filter((c) => c.name !== name)).toEqual([{ t: 2, op: 'create', name: calls[1].name, count: undefined }]);
      expect(written).toEqual([[10, 1], [12, 1], [20, 3], [40, 4]]);
      r.close();
    });
  });

  it('starts a new Event once the window has passed since the last occurrence', () => {
    const ts = newScheduler();
    ts.run(({ flush }) => {
      const { calls, sink } = fakeSink(ts, 1);
      const r = eventRecorder({ sink, reportingController: 'c', reportingInstance: 'i', scheduler: ts, seriesWindowMs: 100 });
      for (const t of [0, 100, 201]) ts.schedule(() => r.publish(labelled), t);
      flush();
      expect(calls.map((c) => [c.t, c.op, c.count])).toEqual([[0, 'create', undefined], [100, 'patch', 2], [201, 'create', undefined]]);
      expect(calls[2].name).not.toBe(calls[0].name);
      r.close();
    });
  });

  it('retries transient failures after retryDelayMs, gives up on 4xx at once, and reports on errors$', () => {
    const ts = newScheduler();
    ts.run(({ flush }) => {
      // The first create fails twice with 503, the second Event's create is refused with 422.
      const { calls, sink } = fakeSink(ts, 1, (c, n) => (n <= 2 ? new Failure(503) : c.t >= 1000 ? new Failure(422) : undefined));
      const r = eventRecorder({ sink, reportingController: 'c', reportingInstance: 'i', scheduler: ts, retryDelayMs: 50, maxTries: 5 });
      const errors: EventRecordError[] = [];
      r.errors$.subscribe((e) => errors.push(e));
      ts.schedule(() => r.publish(labelled), 0);
      ts.schedule(() => r.publish({ ...labelled, reason: 'Other' }), 1000);
      flush();
      expect(calls.map((c) => [c.t, c.op])).toEqual([[0, 'create'], [51, 'create'], [102, 'create'], [1000, 'create']]);
      expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/^could not write Event shop\/web\.[0-9a-f]+ \(Other on Deployment shop\/web\) after 1 try; dropped it/)]);
      r.close();
    });
  });

  it('a series update that finds the Event gone (404) creates it anew with the series', () => {
    const ts = newScheduler();
    ts.run(({ flush }) => {
      const { calls, sink } = fakeSink(ts, 1, (c) => (c.op === 'patch' ? new Failure(undefined, 404) : undefined));
      const r = eventRecorder({ sink, reportingController: 'c', reportingInstance: 'i', scheduler: ts });
      for (const t of [0, 10]) ts.schedule(() => r.publish(labelled), t);
      flush();
      expect(calls.map((c) => [c.t, c.op, c.count])).toEqual([[0, 'create', undefined], [10, 'patch', 2], [11, 'create', 2]]);
      r.close();
    });
  });

  it('a refused series update is given up, and written again only for a newer occurrence', () => {
    const ts = newScheduler();
    ts.run(({ flush }) => {
      const { calls, sink } = fakeSink(ts, 1, (c) => (c.op === 'patch' && c.count === 2 ? new Failure(422) : undefined));
      const r = eventRecorder({ sink, reportingController: 'c', reportingInstance: 'i', scheduler: ts });
      const errors: EventRecordError[] = [];
      r.errors$.subscribe((e) => errors.push(e));
      for (const t of [0, 10, 50]) ts.schedule(() => r.publish(labelled), t);
      flush();
      expect(calls.map((c) => [c.t, c.op, c.count])).toEqual([[0, 'create', undefined], [10, 'patch', 2], [50, 'patch', 3]]);
      expect(errors).toHaveLength(1);
      r.close();
    });
  });

  it('close cancels pending retries and drops later publishes', () => {
    const ts = newScheduler();
    ts.run(({ flush }) => {
      const { calls, sink } = fakeSink(ts, 1, () => new Error('connection refused'));
      const r = eventRecorder({ sink, reportingController: 'c', reportingInstance: 'i', scheduler: ts, retryDelayMs: 50 });
      ts.schedule(() => r.publish(labelled), 0);
      ts.schedule(() => r.close(), 20);
      ts.schedule(() => r.publish(labelled), 30);
      flush();
      expect(calls.map((c) => c.t)).toEqual([0]);
    });
  });

  it('a synchronous sink works like an async one; one that throws synchronously is a failed write, retried or reported', () => {
    const ts = newScheduler();
    ts.run(({ flush }) => {
      const calls: Array<[number, string, number]> = [];
      const throws: Error[] = []; // what the next creates throw, synchronously
      const sink = {
        create: (_ns: string, ev: KubeEvent) => {
          calls.push([ts.now(), 'create', ev.series?.count ?? 1]);
          const err = throws.shift();
          if (err) throw err;
          return of(ev);
        },
        patch: (_ns: string, _name: string, body: JsonPatchOperation[]) => {
          calls.push([ts.now(), 'patch', (body[0] as { value: { count: number } }).value.count]);
          return of(1);
        },
      };
      const r = eventRecorder({ sink, reportingController: 'c', reportingInstance: 'i', scheduler: ts, retryDelayMs: 50 });
      const written: Array<[number, number]> = [];
      const errors: EventRecordError[] = [];
      r.written$.subscribe((e) => written.push([ts.now(), e.series?.count ?? 1]));
      r.errors$.subscribe((e) => errors.push(e));
      for (const t of [0, 1, 2]) ts.schedule(() => r.publish(labelled), t);
      // Another Event whose create throws: a transport error (retried), then a 422 (given up).
      ts.schedule(() => {
        throws.push(new Error('socket hang up'), new Failure(422));
        r.publish({ ...labelled, reason: 'Other' });
      }, 10);
      // Not stuck: a later occurrence starts afresh.
      ts.schedule(() => r.publish({ ...labelled, reason: 'Other' }), 100);
      flush();
      expect(calls).toEqual([[0, 'create', 1], [1, 'patch', 2], [2, 'patch', 3], [10, 'create', 1], [60, 'create', 1], [100, 'create', 1]]);
      expect(written).toEqual([[0, 1], [1, 2], [2, 3], [100, 1]]);
      expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/\(Other on Deployment shop\/web\) after 2 tries; dropped it: failed with 422$/)]);
      r.close();
    });
  });

  it('publish never throws: an input that is not an EventInput is reported on errors$, naming what is wrong, and nothing is written', () => {
    const ts = newScheduler();
    ts.run(({ flush }) => {
      const { calls, sink } = fakeSink(ts, 1);
      const r = eventRecorder({ sink, reportingController: 'c', reportingInstance: 'i', scheduler: ts });
      const errors: EventRecordError[] = [];
      r.errors$.subscribe((e) => errors.push(e));
      const bad: unknown[] = [
        undefined,
        {},
        { ...labelled, regarding: undefined },
        { ...labelled, regarding: null },
        { ...labelled, note: 42 },
        { ...labelled, note: null },
        { ...labelled, note: {} },
        { ...labelled, regarding: { ...regarding, name: 10n } },
        { ...labelled, related: 'web' },
      ];
      ts.schedule(() => {
        for (const input of bad) expect(() => r.publish(input as EventInput)).not.toThrow();
      }, 0);
      flush();
      expect(calls).toEqual([]);
      expect(errors.map((e) => [e.code, e.event, e.message])).toEqual(
        [
          'the input is undefined, not an object',
          "type is undefined, not 'Normal' or 'Warning'",
          'regarding is undefined, not an object reference',
          'regarding is null, not an object reference',
          'note is number, not a string',
          'note is null, not a string',
          'note is object, not a string',
          'regarding.name is bigint, not a string',
          'related is string, not an object reference',
        ].map((why) => ['EventRecordError', undefined, `refused to publish an Event: ${why}; wrote nothing`]),
      );
      expect(errors.map((e) => e.input)).toEqual(bad);
      r.close();
    });
  });

  it('cuts the note to 1024 UTF-8 bytes (what the API server counts), between characters', () => {
    const ts = newScheduler();
    ts.run(({ flush }) => {
      const notes: string[] = [];
      const sink = { create: (_ns: string, ev: KubeEvent) => of(notes.push(ev.note ?? '')), patch: () => of(1) };
      const r = eventRecorder({ sink, reportingController: 'c', reportingInstance: 'i', scheduler: ts });
      const long = ['é'.repeat(600), 'a' + '😀'.repeat(300), 'x'.repeat(1023) + '😀', 'ok'];
      ts.schedule(() => long.forEach((note) => r.publish({ ...labelled, note })), 0);
      flush();
      expect(notes).toEqual(['é'.repeat(512), 'a' + '😀'.repeat(255), 'x'.repeat(1023), 'ok']);
      for (const n of notes) expect(Buffer.byteLength(n, 'utf8')).toBeLessThanOrEqual(1024);
      r.close();
    });
  });
});
