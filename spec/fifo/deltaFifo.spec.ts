import { describe, expect, it } from '@jest/globals';
import {
  firstValueFrom,
  from,
  interval,
  map,
  merge,
  type Observable,
  queueScheduler,
  Subject,
  take,
  tap,
  toArray,
} from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { KeyError, type RxkubeError } from '../../lib/errors.js';
import { deltaFifo, type DeltaFifoOptions } from '../../lib/fifo/deltaFifo.js';
import type { FifoOutput } from '../../lib/fifo/fifoOutput.js';
import type { FifoEvent } from '../../lib/fifo/fifoEvent.js';
import type { ReflectorEvent } from '../../lib/reflector/reflectorEvent.js';
import { describeOutput, keyFunc, obj, TestStore, type TestObj } from './fixtures.js';

type Ev = FifoEvent<TestObj>;
const add = (name: string, val: number): Ev => ({ type: 'add', object: obj(name, val) });
const upd = (name: string, val: number): Ev => ({ type: 'update', object: obj(name, val) });
const del = (name: string, val: number): Ev => ({ type: 'delete', object: obj(name, val) });
const rep = (...items: TestObj[]): Ev => ({ type: 'replace', items, resourceVersion: '1' });

const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const fifo = (options: DeltaFifoOptions<TestObj> = {}) => deltaFifo<TestObj>({ keyFunc, ...options });
type RunHelpers = Parameters<Parameters<TestScheduler['run']>[0]>[0];
/** Runs on virtual time and records each output as `frame value` (and `frame |` on completion). */
function record(build: (helpers: RunHelpers) => Observable<FifoOutput<TestObj>>): string[] {
  const scheduler = testScheduler();
  const out: string[] = [];
  scheduler.run((helpers) => {
    build(helpers).subscribe({
      next: (o) => out.push(`${scheduler.now()} ${describeOutput(o)}`),
      complete: () => out.push(`${scheduler.now()} |`),
    });
  });
  return out;
}
/** Output as readable strings (`key: Type val`, `*` for isInInitialList, `synced`). */
const readable = (o$: Observable<FifoOutput<TestObj>>) => o$.pipe(map(describeOutput));

/** client-go's F2 burst: Add foo10, Add bar1, Update foo12, Delete foo15. */
const f2Burst = () => ({ a: add('foo', 10), b: add('bar', 1), c: upd('foo', 12), d: del('foo', 15) });

describe('deltaFifo operator', () => {
  it('F2: a synchronous burst coalesces per key: one pop with every delta, keys in first-entry order', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const events = cold('(abcd|)', f2Burst());
      expectObservable(readable(events.pipe(fifo()))).toBe('(sxy|)', {
        s: 'synced',
        x: 'foo: Added 10, Updated 12, Deleted 15',
        y: 'bar: Added 1',
      });
    });
  });

  it('F2/F15: in ordered mode the same burst pops every event on its own, in arrival order', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const events = cold('(abcd|)', f2Burst());
      expectObservable(readable(events.pipe(fifo({ mode: 'ordered' })))).toBe('(swxyz|)', {
        s: 'synced',
        w: 'foo: Added 10',
        x: 'bar: Added 1',
        y: 'foo: Updated 12',
        z: 'foo: Deleted 15',
      });
    });
  });

  it('drains once per burst: events in separate frames pop separately', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const events = cold('a----b-c|', { a: add('foo', 1), b: add('bar', 1), c: upd('foo', 2) });
      expectObservable(readable(events.pipe(fifo()))).toBe('(sx)-y-z|', {
        s: 'synced',
        x: 'foo: Added 1',
        y: 'bar: Added 1',
        z: 'foo: Updated 2',
      });
    });
  });

  it('F2: coalesces on the default asapScheduler outside virtual time too', async () => {
    const out = await firstValueFrom(
      from([add('foo', 10), add('bar', 1), upd('foo', 12), del('foo', 15)]).pipe(
        fifo(),
        map(describeOutput),
        toArray(),
      ),
    );
    expect(out).toEqual(['synced', 'foo: Added 10, Updated 12, Deleted 15', 'bar: Added 1']);
  });

  it('with queueScheduler drains after every event (no coalescing across events)', () => {
    const out: string[] = [];
    from([add('foo', 1), add('bar', 1), upd('foo', 2)])
      .pipe(fifo({ scheduler: queueScheduler }), map(describeOutput))
      .subscribe((o) => out.push(o));
    expect(out).toEqual(['synced', 'foo: Added 1', 'bar: Added 1', 'foo: Updated 2']);
  });

  it('pull$: pops only on demand; events keep coalescing meanwhile; synced needs no demand', () => {
    testScheduler().run(({ cold, hot, expectObservable }) => {
      const events = cold('a-b-c|', { a: add('foo', 1), b: add('bar', 1), c: upd('foo', 2) });
      const pull$ = hot('------1-1', { 1: 1 });
      expectObservable(readable(events.pipe(fifo({ pull$ })))).toBe('s-----x-(y|)', {
        s: 'synced',
        x: 'foo: Added 1, Updated 2',
        y: 'bar: Added 1',
      });
    });
  });

  it('pull$: demand given ahead is spent as entries arrive; Infinity lets everything through', () => {
    const out = record(({ cold, hot }) => {
      const events = cold('a----b----c---d', {
        a: add('a', 1),
        b: add('b', 1),
        c: add('c', 1),
        d: add('d', 1),
      });
      const pull$ = hot('2-----------i', { 2: 2, i: Infinity });
      return events.pipe(fifo({ pull$ }));
    });
    expect(out).toEqual(['0 synced', '0 a: Added 1', '5 b: Added 1', '12 c: Added 1', '14 d: Added 1']);
  });

  it('pull$: a consumer that pulls again while handling a pop gets the next one in the same drain', () => {
    const pull$ = new Subject<number>();
    const out: string[] = [];
    from([add('a', 1), add('b', 1), add('c', 1)])
      .pipe(fifo({ pull$, scheduler: queueScheduler }))
      .subscribe((o) => {
        out.push(describeOutput(o));
        if (o.type === 'pop') pull$.next(1);
      });
    expect(out).toEqual(['synced']);
    pull$.next(1);
    expect(out).toEqual(['synced', 'a: Added 1', 'b: Added 1', 'c: Added 1']);
    pull$.complete();
  });

  it('F10: the synced marker follows the last pop of the first Replace, once', () => {
    const out = record(({ cold, hot }) => {
      const events = cold('r----a----r', { r: rep(obj('a', 1), obj('b', 1)), a: add('c', 1) });
      const pull$ = hot('--1-1--1-----1-1', { 1: 1 });
      return events.pipe(fifo({ pull$ }));
    });
    expect(out).toEqual([
      '2 a*: Sync 1',
      '4 b*: Sync 1',
      '4 synced',
      '7 c: Added 1',
      '13 a: Sync 1',
      '15 b: Sync 1',
    ]);
  });

  it('F10: Replace([]) is synced at once; nothing before any event', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(
        readable(cold<Ev>('--b-r', { b: { type: 'bookmark', resourceVersion: '1' }, r: rep() }).pipe(fifo())),
      ).toBe('----s', { s: 'synced' });
    });
  });

  it('F11: pops of the first Replace are isInInitialList, in both modes', () => {
    for (const mode of ['coalescing', 'ordered'] as const) {
      const out = record(({ cold }) =>
        cold('(ra)-r', { r: rep(obj('a', 1)), a: add('b', 1) }).pipe(
          fifo({ mode, emitDeltaTypeReplaced: true }),
        ),
      );
      expect(out).toEqual(['0 a*: Replaced 1', '0 synced', '0 b: Added 1', '5 a: Replaced 1']);
    }
  });

  it('F1: two producers interleaved through the operator each come out in their own order', () => {
    const out: string[] = [];
    testScheduler().run(() => {
      const producer = (p: string) =>
        interval(1).pipe(
          take(500),
          map((i) => add(`${p}${i}`, i)),
        );
      merge(producer('a'), producer('b'))
        .pipe(fifo())
        .subscribe((o) => {
          if (o.type === 'pop') out.push(o.key);
        });
    });
    expect(out).toHaveLength(1000);
    expect(out.filter((k) => k.startsWith('a'))).toEqual(Array.from({ length: 500 }, (_, i) => `a${i}`));
    expect(out.filter((k) => k.startsWith('b'))).toEqual(Array.from({ length: 500 }, (_, i) => `b${i}`));
  });

  it('F3/F6/F9: reads a live known store that the consumer updates from the pops', () => {
    const store = new TestStore();
    const out = record(({ cold }) => {
      const events = cold<Ev>('r-d-D-R-y', {
        r: rep(obj('foo', 1), obj('bar', 1), obj('baz', 1)),
        d: del('baz', 2),
        D: del('nope', 1),
        R: rep(obj('foo', 2)),
        y: { type: 'resync' },
      });
      return events.pipe(
        fifo({ knownObjects: store }),
        tap((o) => o.type === 'pop' && store.apply(o)),
      );
    });
    expect(out).toEqual([
      '0 foo*: Sync 1',
      '0 bar*: Sync 1',
      '0 baz*: Sync 1',
      '0 synced',
      '2 baz: Deleted 2',
      '6 foo: Sync 2',
      '6 bar: Deleted dfsu(1)',
      '8 foo: Sync 2',
    ]);
    expect([...store.map.values()]).toEqual([obj('foo', 2)]);
  });

  it('F14: completing the source completes the output after what is queued has been delivered', () => {
    testScheduler().run(({ cold, hot, expectObservable }) => {
      expectObservable(readable(cold('(ab|)', { a: add('a', 1), b: add('b', 1) }).pipe(fifo()))).toBe(
        '(sxy|)',
        {
          s: 'synced',
          x: 'a: Added 1',
          y: 'b: Added 1',
        },
      );
      expectObservable(cold<Ev>('|').pipe(fifo())).toBe('|');
      const pull$ = hot('----1--1', { 1: 1 });
      expectObservable(
        readable(cold('(ab|)', { a: add('a', 1), b: add('b', 1) }).pipe(fifo({ pull$ }))),
      ).toBe('s---x--(y|)', { s: 'synced', x: 'a: Added 1', y: 'b: Added 1' });
    });
  });

  it('passes a source error on after delivering what the drain can', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const err = new Error('gone');
      expectObservable(readable(cold('(ab#)', { a: add('a', 1), b: add('b', 1) }, err).pipe(fifo()))).toBe(
        '(sxy#)',
        { s: 'synced', x: 'a: Added 1', y: 'b: Added 1' },
        err,
      );
    });
  });

  it('unsubscribing tears down the source, pull$ and a pending drain', () => {
    testScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const events = cold('a-b-c', { a: add('a', 1), b: add('b', 1), c: add('c', 1) });
      const pull$ = hot('1---1', { 1: 1 });
      expectObservable(readable(events.pipe(fifo({ pull$ }))), '^--!').toBe('(sa)', {
        s: 'synced',
        a: 'a: Added 1',
      });
      expectSubscriptions(events.subscriptions).toBe('^--!');
      expectSubscriptions(pull$.subscriptions).toBe('^--!');
    });
    const out: string[] = [];
    const sub = from([add('a', 1)])
      .pipe(fifo())
      .subscribe((o) => out.push(describeOutput(o)));
    sub.unsubscribe(); // before the asap drain: nothing may come out, no timer left behind
    expect(out).toEqual([]);
  });

  it('skips an object without a key, reports a KeyError and goes on', () => {
    const errors: RxkubeError[] = [];
    const out: string[] = [];
    from<ReflectorEvent<{ metadata?: { name?: string } }>[]>([
      { type: 'add', object: {} },
      { type: 'add', object: { metadata: { name: 'a' } } },
    ])
      .pipe(deltaFifo({ scheduler: queueScheduler, onError: (e) => errors.push(e) }))
      .subscribe((o) => out.push(o.type === 'pop' ? o.key : o.type));
    expect(out).toEqual(['synced', 'a']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(KeyError);
  });

  it('F13: the transform runs once per object through the operator', () => {
    let calls = 0;
    const out: string[] = [];
    from([add('a', 1), upd('a', 2)])
      .pipe(
        fifo({ scheduler: queueScheduler, transform: (o) => (calls++, { ...o, val: o.val * 10 }) }),
        map(describeOutput),
      )
      .subscribe((o) => out.push(o));
    expect(calls).toBe(2);
    expect(out).toEqual(['synced', 'a: Added 10', 'a: Updated 20']);
  });
});

describe('docs/fifo.md diagrams', () => {
  const a = add('a', 1);
  const A = upd('a', 2);
  const b = add('b', 1);
  const B = upd('b', 2);

  it('bursts', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      expectObservable(readable(cold('-(aAb)-----B--|', { a, A, b, B }).pipe(fifo()))).toBe(
        '-(sXY)-----Z--|',
        {
          s: 'synced',
          X: 'a: Added 1, Updated 2',
          Y: 'b: Added 1',
          Z: 'b: Updated 2',
        },
      );
    });
  });

  it('demand', () => {
    testScheduler().run(({ cold, hot, expectObservable }) => {
      const pull$ = hot('-------------1--1', { 1: 1 });
      expectObservable(readable(cold('-a--b--A--|', { a, A, b }).pipe(fifo({ pull$ })))).toBe(
        '-s-----------X--(Y|)',
        {
          s: 'synced',
          X: 'a: Added 1, Updated 2',
          Y: 'b: Added 1',
        },
      );
    });
  });

  it('the operator docblock', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const r = rep(obj('a', 3), obj('b', 1));
      expectObservable(readable(cold('-(abA)----r-----|', { a, b, A, r }).pipe(fifo()))).toBe(
        '-(sXY)----(CD)--|',
        {
          s: 'synced',
          X: 'a: Added 1, Updated 2',
          Y: 'b: Added 1',
          C: 'a: Sync 3',
          D: 'b: Sync 1',
        },
      );
    });
  });
});
