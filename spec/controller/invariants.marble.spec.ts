// A seeded random load on virtual time: many keys changed at random times, reconciles of random
// length that fail 20% of the time, five workers. Checked all through: no key in two workers at
// once, never more than five at once; at the end every key was last reconciled successfully at
// its latest resource version.
import { describe, expect, it } from '@jest/globals';
import { map, merge, timer } from 'rxjs';
import { controller } from '../../lib/controller/controller.js';
import { informer } from '../../lib/informer/informer.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { fakeListWatch, listPage } from '../../lib/testing/marbles.js';
import { seededRandom } from '../../lib/testing/fakeApiServer/random.js';
import { itemExponentialFailureRateLimiter } from '../../lib/workqueue/itemExponentialFailureRateLimiter.js';
import { HeldKeys, dep, testScheduler, type Obj } from './support.js';

describe('controller invariants under a seeded random load (virtual time)', () => {
  it.each([1, 2, 3])('seed %i: no key in two workers, at most `concurrency` at once, every key converges to its latest version', (seed) => {
    const random = seededRandom(seed);
    const ts = testScheduler();
    const held = new HeldKeys();
    const KEYS = 60;
    const latest = new Map<string, string>();
    const lastGood = new Map<string, string>();
    let rv = 100;
    const initial = Array.from({ length: KEYS }, (_, i) => dep(`d${i}`, String(++rv)));
    for (const d of initial) latest.set(`ns/${d.metadata.name}`, d.metadata.resourceVersion);
    // 300 changes at random times in the first 2 s.
    const changes = Array.from({ length: 300 }, () => ({ at: random.int(2000), name: `d${random.int(KEYS)}` }))
      .sort((a, b) => a.at - b.at)
      .map(({ at, name }) => {
        const object = dep(name, String(++rv), rv);
        latest.set(`ns/${name}`, object.metadata.resourceVersion);
        return { at, event: { type: 'MODIFIED', object } as WatchEvent<Obj> };
      });
    let reconciles = 0;
    ts.run(() => {
      const lw = fakeListWatch<Obj>({
        lists: [timer(5, ts).pipe(map(() => listPage(initial, '100')))],
        watches: [merge(...changes.map((c) => timer(c.at, ts).pipe(map(() => c.event))))],
      });
      const deps = informer(lw, { scheduler: ts, reflector: { random: () => 0 } });
      const ctl = controller({
        for: deps,
        scheduler: ts,
        concurrency: 5,
        rateLimiter: itemExponentialFailureRateLimiter({ baseMs: 5, maxMs: 200 }),
        reconcile: (key, { object }) => {
          reconciles++;
          held.enter(key);
          const seen = object?.metadata.resourceVersion ?? '';
          const fails = random.next() < 0.2;
          return timer(1 + random.int(30), ts).pipe(
            map(() => {
              held.leave(key);
              if (fails) throw new Error(`flaky ${key}`);
              lastGood.set(key, seen);
            }),
          );
        },
      });
      ctl.start();
      ts.schedule(() => {
        void ctl.stop();
        void deps.stop();
      }, 10_000);
    });
    expect(held.violations).toEqual([]);
    expect(held.maxConcurrent).toBe(5);
    expect([...lastGood].sort()).toEqual([...latest].sort());
    // Changes of a key merge while it is queued: fewer reconciles than changes plus retries.
    expect(reconciles).toBeLessThan(KEYS + changes.length * 1.5);
  });
});
