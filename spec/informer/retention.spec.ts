import { describe, expect, it } from '@jest/globals';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { of, Subject } from 'rxjs';
import { informer } from '../../lib/informer/informer.js';
import type { ListWatch } from '../../lib/listwatch/listWatch.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { listPage } from '../../lib/testing/marbles.js';
import { pod, type Pod } from './support.js';

// What the informer no longer needs must be collectable while it runs: objects replaced in the
// store, and the list they came from. Checked with WeakRefs and a forced full GC.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Resolves after a macrotask: WeakRef targets read in this job stay alive until it ends. */
const nextTask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('informer: retention', () => {
  it('listed objects replaced by watch events are collectable while the watch goes on', async () => {
    const watch = new Subject<WatchEvent<Pod>>();
    const listed = Array.from({ length: 50 }, (_, i) => pod(`p${i}`, '1'));
    const refs = listed.map((p) => new WeakRef(p));
    const lw: ListWatch<Pod> = {
      list: () => of(listPage(listed.splice(0), '1')), // the test keeps no reference to the items
      watch: () => watch,
    };
    const inf = informer(lw, { resyncPeriod: 0 });
    let updates = 0;
    inf.addEventHandler({ update: () => void updates++ });
    inf.start();
    try {
      expect(await inf.waitForCacheSync({ timeout: 5_000 })).toBe(true);
      for (let i = 0; i < 50; i++) watch.next({ type: 'MODIFIED', object: pod(`p${i}`, '2') });
      expect(updates).toBe(50);
      await nextTask();
      gc();
      await nextTask();
      const alive = refs.map((r, i) => (r.deref() === undefined ? -1 : i)).filter((i) => i >= 0);
      expect(alive).toEqual([]);
      expect(inf.list()).toHaveLength(50);
      expect(watch.observed).toBe(true); // the watch is still open: nothing was released by a stop
    } finally {
      await inf.stop();
    }
  });
});
