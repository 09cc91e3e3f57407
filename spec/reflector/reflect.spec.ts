import { describe, expect, it } from '@jest/globals';
import type { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { ListWatch, WatchOptions } from '../../lib/listwatch/listWatch.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { reflect } from '../../lib/reflector/reflect.js';
import { reflector } from '../../lib/reflector/reflector.js';
import type { ReflectorOutput } from '../../lib/reflector/reflectorOutput.js';
import type { ReflectorStatus } from '../../lib/reflector/reflectorStatus.js';
import { bookmark, page, pod, scriptedListWatch, status, type Pod } from './scriptedListWatch.js';

// The reflector's one output per subscription (issue 12): events in bursts, status and errors on
// one stream, nothing shared between subscriptions.

type E = WatchEvent<Pod>;
const added = (p: Pod): E => ({ type: 'ADDED', object: p });
const modified = (p: Pod): E => ({ type: 'MODIFIED', object: p });
const newScheduler = () => new TestScheduler((a, e) => expect(a).toEqual(e));

/** A ListWatch whose watches come in bursts (as the real one's do, one per chunk). */
function burstListWatch(
  ts: TestScheduler,
  watches: ReadonlyArray<(o: WatchOptions) => Observable<ReadonlyArray<E>>>,
): ListWatch<Pod> {
  const lw = scriptedListWatch<Pod>(ts, [() => ts.createColdObservable('(a|)', { a: page([], '10') })], []);
  let w = 0;
  return { ...lw, watchBursts: (o) => watches[w++]!(o) };
}

/** One letter per output: e(vents), s(tatus) with its state's first letter, x for an error. */
const letters = (out: ReflectorOutput<Pod>): string =>
  out.type === 'events' ? 'e' : out.type === 'status' ? out.status.state[0] : 'x';

describe('reflect: one output per subscription', () => {
  it('a chunk of events is one burst, with the RV after it; a list is one burst', () => {
    const ts = newScheduler();
    ts.run(({ cold, expectObservable }) => {
      const lw = burstListWatch(ts, [
        () =>
          cold<ReadonlyArray<E>>('5ms a', {
            a: [added(pod('a', '11')), modified(pod('a', '12')), bookmark('13')],
          }),
      ]);
      expectObservable(reflect(lw, { scheduler: ts, random: () => 0 }), '^ 10ms !').toBe('(lRw) B', {
        l: { type: 'status', status: { state: 'listing', resourceVersion: '0' } },
        R: {
          type: 'events',
          events: [{ type: 'replace', items: [], resourceVersion: '10' }],
          resourceVersions: ['10'],
        },
        w: { type: 'status', status: { state: 'watching', resourceVersion: '10' } },
        B: {
          type: 'events',
          events: [
            { type: 'add', object: pod('a', '11') },
            { type: 'update', object: pod('a', '12') },
            { type: 'bookmark', resourceVersion: '13' },
          ],
          resourceVersions: ['11', '12', '13'],
        },
      });
    });
  });

  it('an ERROR in the middle of a chunk: the events before it are one burst, then the error; the rest of the chunk is not passed on', () => {
    const ts = newScheduler();
    const outs: ReflectorOutput<Pod>[] = [];
    ts.run(({ cold }) => {
      const lw = burstListWatch(ts, [
        () =>
          cold<ReadonlyArray<E>>('5ms a', {
            a: [
              added(pod('a', '11')),
              { type: 'ERROR', object: status(500, 'InternalError') },
              added(pod('b', '12')),
            ],
          }),
      ]);
      const sub = reflect(lw, { scheduler: ts, random: () => 0 }).subscribe((o) => outs.push(o));
      ts.schedule(() => sub.unsubscribe(), 100);
    });
    expect(outs.map(letters).join('')).toBe('lewexb'); // listing, replace, watching, [add], error, backingOff
    expect(outs[3]).toEqual({
      type: 'events',
      events: [{ type: 'add', object: pod('a', '11') }],
      resourceVersions: ['11'],
    });
    expect(outs[4]).toMatchObject({ type: 'error', error: { statusCode: 500, action: 'relist' } });
  });

  it('two subscriptions of reflector().outputs$: each output has its own RVs (once each) and statuses; one leaving does not make the other idle; the side channels are not fed', () => {
    const ts = newScheduler();
    const first: string[] = [];
    const second: string[] = [];
    const sideChannels: string[] = [];
    ts.run(({ cold }) => {
      const lw = scriptedListWatch<Pod>(
        ts,
        [() => cold('(a|)', { a: page([], '10') }), () => cold('(a|)', { a: page([], '10') })],
        [
          () => cold('5ms a', { a: added(pod('a', '11')) }),
          () => cold('5ms a 10ms b', { a: added(pod('a', '11')), b: added(pod('b', '12')) }),
        ],
      );
      const r = reflector(lw, { scheduler: ts, random: () => 0 });
      r.status$.subscribe((s) => sideChannels.push(s.state));
      r.resourceVersion$.subscribe((rv) => sideChannels.push(rv));
      const r$ = r.outputs$;
      const show = (o: ReflectorOutput<Pod>): string =>
        o.type === 'events'
          ? `rv ${o.resourceVersions.join(',')}`
          : o.type === 'status'
            ? o.status.state
            : 'error';
      const a = r$.subscribe((o) => first.push(show(o)));
      const b = r$.subscribe((o) => second.push(show(o)));
      ts.schedule(() => a.unsubscribe(), 8);
      ts.schedule(() => b.unsubscribe(), 30);
    });
    expect(first).toEqual(['listing', 'rv 10', 'watching', 'rv 11']);
    expect(second).toEqual(['listing', 'rv 10', 'watching', 'rv 11', 'rv 12']);
    expect(sideChannels).toEqual(['idle']);
  });
});

describe('reflector (side channels over reflect)', () => {
  it('with two subscriptions, status$ stays "watching" when one leaves, and says idle only when the last one does', () => {
    const ts = newScheduler();
    const states: string[] = [];
    ts.run(({ cold }) => {
      const lw = scriptedListWatch<Pod>(
        ts,
        [() => cold('(a|)', { a: page([], '10') }), () => cold('(a|)', { a: page([], '10') })],
        [() => cold('-'), () => cold('-')],
      );
      const r = reflector<Pod>(lw, { scheduler: ts, random: () => 0 });
      r.status$.subscribe((s: ReflectorStatus) => states.push(`${s.state}@${ts.now()}`));
      const a = r.events$.subscribe();
      const b = r.events$.subscribe();
      ts.schedule(() => a.unsubscribe(), 8);
      ts.schedule(() => b.unsubscribe(), 17);
    });
    // before: an idle@8 when the first left, while the second still watched
    expect(states).toEqual(['idle@0', 'listing@0', 'listing@0', 'watching@0', 'watching@0', 'idle@17']);
  });

  it('bursts$ carries the bursts; events$ is the same flattened', () => {
    const ts = newScheduler();
    const bursts: string[] = [];
    const events: string[] = [];
    ts.run(({ cold }) => {
      const chunk = () =>
        cold<ReadonlyArray<E>>('5ms a', { a: [added(pod('a', '11')), added(pod('b', '12'))] });
      const r1 = reflector<Pod>(burstListWatch(ts, [chunk]), { scheduler: ts, random: () => 0 });
      const r2 = reflector<Pod>(burstListWatch(ts, [chunk]), { scheduler: ts, random: () => 0 });
      const s1 = r1.bursts$.subscribe((b) => bursts.push(b.map((e) => e.type).join(',')));
      const s2 = r2.events$.subscribe((e) => events.push(e.type));
      ts.schedule(() => (s1.unsubscribe(), s2.unsubscribe()), 10);
    });
    expect(bursts).toEqual(['replace', 'add,add']);
    expect(events).toEqual(['replace', 'add', 'add']);
  });
});
