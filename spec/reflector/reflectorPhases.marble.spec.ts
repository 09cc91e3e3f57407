import { describe, expect, it } from '@jest/globals';
import { Observable, take } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { ListWatch } from '../../lib/listwatch/listWatch.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { reflect } from '../../lib/reflector/reflect.js';
import type { ReflectorOutput } from '../../lib/reflector/reflectorOutput.js';
import { apiError, page, pod, scriptedListWatch, status, type Pod } from './scriptedListWatch.js';

// The operators that drive the step: each phase's I/O is an effect on the injected scheduler, and
// entering the next phase ends the previous one's.

type E = WatchEvent<Pod>;
const newScheduler = () => new TestScheduler((a, e) => expect(a).toEqual(e));

/** One letter per output: e(vents), x (error), or the status's first letter. */
const letter = (out: ReflectorOutput<Pod>): string =>
  out.type === 'events' ? 'e' : out.type === 'status' ? out.status.state[0] : 'x';

describe('reflect: the phases on the injected scheduler', () => {
  it('the backoff timer runs on the injected scheduler: 150 ms then 300 ms (initial 100 ms, jitter at random 0.5)', () => {
    const ts = newScheduler();
    ts.run(({ cold, expectObservable }) => {
      const fail = () => cold<never>('#', {}, apiError(500, 'InternalError'));
      const lw = scriptedListWatch<Pod>(
        ts,
        [fail, fail, () => cold('(a|)', { a: page([pod('a', '1')], '10') })],
        [() => cold('-')],
      );
      const out$ = reflect(lw, { scheduler: ts, random: () => 0.5, backoff: { initialMs: 100 } });
      const letters$ = new Observable<string>((s) => out$.subscribe((o) => s.next(letter(o))));
      expectObservable(letters$, '^ 1000ms !').toBe('(lxb) 145ms (lxb) 295ms (lew)', {
        l: 'l',
        x: 'x',
        b: 'b',
        e: 'e',
        w: 'w',
      });
    });
  });

  it('the backoff timer uses only the injected scheduler: a virtual-time scheduler flushed by hand runs the whole retry', () => {
    // Not in run mode: a timer on asyncScheduler would not have fired by flush().
    const ts = newScheduler();
    const lw = scriptedListWatch<Pod>(
      ts,
      [
        () => ts.createColdObservable<never>('#', {}, apiError(500, 'InternalError')),
        () => ts.createColdObservable('-'),
      ],
      [],
    );
    const sub = reflect(lw, { scheduler: ts, random: () => 0, backoff: { initialMs: 100 } }).subscribe();
    ts.flush(); // (a TestScheduler outside run mode runs 750 frames)
    expect(lw.listCalls().map((c) => c.at)).toEqual([0, 100]);
    sub.unsubscribe();
  });

  it('unsubscribing while backing off cancels the timer: no request follows', () => {
    const ts = newScheduler();
    let lw: ReturnType<typeof scriptedListWatch<Pod>> | undefined;
    ts.run(({ cold }) => {
      lw = scriptedListWatch<Pod>(ts, [() => cold<never>('#', {}, apiError(500, 'InternalError'))], []);
      const sub = reflect(lw, { scheduler: ts, random: () => 0 }).subscribe();
      ts.schedule(() => sub.unsubscribe(), 400);
    });
    expect(lw!.listCalls().map((c) => c.at)).toEqual([0]);
  });

  it('leaving a watch from inside its own event aborts it one scheduler turn later; what it sends meanwhile is dropped', () => {
    const ts = newScheduler();
    const outs: ReflectorOutput<Pod>[] = [];
    let inside = false;
    let abortedInside: boolean | undefined;
    let abortedAt: number | undefined;
    ts.run(({ cold }) => {
      const lw = scriptedListWatch<Pod>(
        ts,
        [() => cold('(a|)', { a: page([], '10') })],
        [
          () =>
            new Observable<E>((subscriber) => {
              ts.schedule(() => {
                inside = true;
                subscriber.next({ type: 'ERROR', object: status(500, 'InternalError') });
                subscriber.next({ type: 'ADDED', object: pod('late', '11') });
                inside = false;
              }, 5);
              return () => {
                abortedInside = inside;
                abortedAt = ts.now();
              };
            }),
        ],
      );
      const sub = reflect(lw, { scheduler: ts, random: () => 0 }).subscribe((o) => outs.push(o));
      ts.schedule(() => sub.unsubscribe(), 100);
    });
    expect(abortedInside).toBe(false);
    expect(abortedAt).toBe(5);
    expect(outs.map(letter).join('')).toBe('lewxb');
  });

  it('a ListWatch whose watch throws instead of returning an Observable fails that watch only: rewatch after a backoff', () => {
    const ts = newScheduler();
    const outs: ReflectorOutput<Pod>[] = [];
    const watches: number[] = [];
    ts.run(({ cold }) => {
      const lw: ListWatch<Pod> = {
        list: () => cold('(a|)', { a: page([], '10') }),
        watch: () => {
          watches.push(ts.now());
          if (watches.length === 1) throw new Error('watch is broken');
          return cold('-');
        },
      };
      const sub = reflect(lw, { scheduler: ts, random: () => 0 }).subscribe((o) => outs.push(o));
      ts.schedule(() => sub.unsubscribe(), 2000);
    });
    expect(watches).toEqual([0, 800]);
    expect(outs.map(letter).join('')).toBe('lewxbw');
    expect(outs[3]).toMatchObject({
      type: 'error',
      error: { action: 'rewatch', message: expect.stringContaining('watch is broken') },
    });
  });

  it('a subscriber that leaves inside an output starts nothing more, even when the list answers synchronously', () => {
    const ts = newScheduler();
    const lw = scriptedListWatch<Pod>(
      ts,
      [() => new Observable((s) => (s.next(page([], '10')), s.complete()))],
      [],
    );
    const seen: string[] = [];
    // take(2) unsubscribes from inside the second output (the list's replace), synchronously
    reflect(lw, { scheduler: ts })
      .pipe(take(2))
      .subscribe((o) => seen.push(letter(o)));
    expect(seen).toEqual(['l', 'e']);
    expect(lw.watchCalls()).toEqual([]);
  });
});

describe('reflect: a ListWatch that breaks its contract', () => {
  it('a burst that is not an array fails that watch (an error output, a backoff, a re-watch) and never the stream', () => {
    const ts = newScheduler();
    const letters: string[] = [];
    const errors: unknown[] = [];
    let watches = 0;
    ts.run(({ cold }) => {
      const lw: ListWatch<Pod> = {
        list: () => cold('(a|)', { a: page([pod('a', '1')], '10') }),
        watch: () => cold('-'),
        watchBursts: () =>
          watches++ === 0
            ? cold<ReadonlyArray<E>>('-a', { a: null as unknown as ReadonlyArray<E> })
            : cold<ReadonlyArray<E>>('-'),
      };
      const sub = reflect(lw, { scheduler: ts, random: () => 0, backoff: { initialMs: 100 } }).subscribe({
        next: (o) => {
          letters.push(letter(o));
          if (o.type === 'error') errors.push(o.error.cause);
        },
        error: (e: unknown) => errors.push(`stream errored: ${String(e)}`),
      });
      ts.schedule(() => sub.unsubscribe(), 500);
    });
    expect(letters.join('')).toBe('lewxbw');
    expect(watches).toBe(2);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain('could not handle a burst input');
  });
});
