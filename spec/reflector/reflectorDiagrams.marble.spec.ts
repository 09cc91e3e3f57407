import { describe, expect, it } from '@jest/globals';
import { map, NEVER, of, queueScheduler, throwError, type Subscription } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { ListPage, ListWatch } from '../../lib/listwatch/listWatch.js';
import { reflector } from '../../lib/reflector/reflector.js';
import type { ReflectorStatus } from '../../lib/reflector/reflectorStatus.js';
import { apiError, page, pod, scriptedListWatch, type Pod } from './scriptedListWatch.js';
import { added, modified } from './watchEvents.js';

// The reflector as marble diagrams.
describe('reflector marble diagrams', () => {
  const newScheduler = () => new TestScheduler((a, e) => expect(a).toEqual(e));
  const letter: Record<ReflectorStatus['state'], string> = {
    idle: 'i',
    listing: 'l',
    watchListing: 'v',
    watching: 'w',
    backingOff: 'b',
  };

  it('R7: two failed lists back off 800 ms then 1600 ms; the replace comes at 2400 ms', () => {
    const ts = newScheduler();
    ts.run(({ cold, expectObservable }) => {
      const fail = () => cold<ListPage<Pod>>('#', {}, apiError(500, 'InternalError'));
      const lw = scriptedListWatch<Pod>(
        ts,
        [fail, fail, () => cold('(a|)', { a: page([pod('a', '1')], '10') })],
        [],
      );
      const r = reflector<Pod>(lw, { scheduler: ts, random: () => 0 });
      expectObservable(r.status$.pipe(map((s) => letter[s.state])), '^ 4000ms !').toBe(
        '(ilb) 795ms (lb) 1596ms (lw) 597ms i',
      );
      expectObservable(r.events$, '^ 3000ms !').toBe('2400ms r', {
        r: { type: 'replace', items: [pod('a', '1')], resourceVersion: '10' },
      });
    });
  });

  it('R5 + R8: a clean close re-watches at once from the last event RV; events flow on', () => {
    const ts = newScheduler();
    ts.run(({ cold, expectObservable }) => {
      const lw = scriptedListWatch<Pod>(
        ts,
        [() => cold('(a|)', { a: page([], '10') })],
        [
          (o) => cold('1s a 999ms |', { a: added(pod('x', String(Number(o.resourceVersion) + 1))) }),
          (o) => cold('1s a', { a: modified(pod('x', String(Number(o.resourceVersion) + 1))) }),
        ],
      );
      const r = reflector<Pod>(lw, { scheduler: ts, random: () => 0 });
      expectObservable(r.events$, '^ 5s !').toBe('r 999ms a 1999ms u', {
        r: { type: 'replace', items: [], resourceVersion: '10' },
        a: { type: 'add', object: pod('x', '11') },
        u: { type: 'update', object: pod('x', '12') },
      });
    });
  });

  it('R12: with bookmarks expected, a dead watch is replaced after bookmark interval + grace of silence plus one backoff step', () => {
    const ts = newScheduler();
    ts.run(({ cold, expectObservable }) => {
      const lw = scriptedListWatch<Pod>(
        ts,
        [() => cold('(a|)', { a: page([], '10') })],
        [() => cold('a', { a: added(pod('x', '11')) }), () => cold('a', { a: modified(pod('x', '12')) })],
      );
      const r = reflector<Pod>(lw, { scheduler: ts, random: () => 0, deadWatchGraceSeconds: 10 });
      // 60 s bookmark interval + 10 s grace = 70 s of silence; then 800 ms of backoff
      expectObservable(r.events$, '^ 100s !').toBe('(ra) 70796ms u', {
        r: { type: 'replace', items: [], resourceVersion: '10' },
        a: { type: 'add', object: pod('x', '11') },
        u: { type: 'update', object: pod('x', '12') },
      });
    });
  });

  it('R12: without bookmarks expected, a dead watch is replaced after timeoutSeconds + grace of silence plus one backoff step', () => {
    const ts = newScheduler();
    ts.run(({ cold, expectObservable }) => {
      const lw = scriptedListWatch<Pod>(
        ts,
        [() => cold('(a|)', { a: page([], '10') })],
        [() => cold('a', { a: added(pod('x', '11')) }), () => cold('a', { a: modified(pod('x', '12')) })],
      );
      const r = reflector<Pod>(lw, {
        scheduler: ts,
        random: () => 0,
        deadWatchGraceSeconds: 10,
        expectedBookmarkIntervalMs: 0,
      });
      // 300 s watch timeout + 10 s grace = 310 s of silence; then 800 ms of backoff
      expectObservable(r.events$, '^ 400s !').toBe('(ra) 310796ms u', {
        r: { type: 'replace', items: [], resourceVersion: '10' },
        a: { type: 'add', object: pod('x', '11') },
        u: { type: 'update', object: pod('x', '12') },
      });
    });
  });

  it('unsubscribing from inside an event stops everything: no further request is made', () => {
    const ts = newScheduler();
    let lw: ReturnType<typeof scriptedListWatch<Pod>> | undefined;
    ts.run(({ cold }) => {
      lw = scriptedListWatch<Pod>(ts, [() => cold('(a|)', { a: page([], '10') })], []);
      const sub: Subscription = reflector<Pod>(lw, { scheduler: ts }).events$.subscribe(() =>
        sub.unsubscribe(),
      );
    });
    expect(lw!.calls.map((c) => c.op)).toEqual(['list']);
  });

  it('a ListWatch that answers synchronously works (no stale request is left behind)', () => {
    const calls: string[] = [];
    const lw: ListWatch<Pod> = {
      list: (o) => {
        calls.push(`list@${o.resourceVersion}`);
        return o.resourceVersion === '0'
          ? of(page([pod('a', '1')], '10'))
          : throwError(() => apiError(410, 'Expired'));
      },
      watch: (o) => {
        calls.push(`watch@${o.resourceVersion}`);
        return NEVER;
      },
    };
    const events: string[] = [];
    const sub = reflector<Pod>(lw, { scheduler: queueScheduler }).events$.subscribe((e) =>
      events.push(e.type),
    );
    sub.unsubscribe();
    expect(calls).toEqual(['list@0', 'watch@10']);
    expect(events).toEqual(['replace']);
  });
});
