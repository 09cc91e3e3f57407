import type { SchedulerLike } from 'rxjs';
import type { Random } from './random.js';
import type { Registry } from './registry.js';
import type { ResourceTypes } from './resources.js';
import type { Storage } from './storage.js';
import type { WatchHub } from './watchHub.js';

/** Everything a request handler needs; one per server. */
export interface ServerContext {
  readonly storage: Storage;
  readonly registry: Registry;
  readonly types: ResourceTypes;
  readonly hub: WatchHub;
  readonly scheduler: SchedulerLike;
  readonly rng: Random;
  readonly bookmarkIntervalMs: number;
  readonly initialBookmark: boolean;
  readonly watchList: boolean;
  readonly tooLargeResourceVersionWaitMs: number;
  /** Current slowEvents delay for new watches. */
  slowMs: number;
  /** Resolves true once the global revision reaches `rv`, false after the wait (or on close). */
  waitForRv(rv: number): Promise<boolean>;
}

/** Builds `waitForRv` and a canceller for the waits still pending at close. */
export function rvWaiter(storage: Storage, scheduler: SchedulerLike, waitMs: number): { waitForRv: (rv: number) => Promise<boolean>; cancelAll: () => void } {
  const pending = new Set<() => void>();
  const waitForRv = (rv: number): Promise<boolean> => {
    if (storage.resourceVersion >= rv) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        off();
        timer.unsubscribe();
        pending.delete(cancel);
        resolve(ok);
      };
      const cancel = () => done(false);
      const off = storage.onChange(() => {
        if (storage.resourceVersion >= rv) done(true);
      });
      const timer = scheduler.schedule(() => done(false), waitMs);
      pending.add(cancel);
    });
  };
  return { waitForRv, cancelAll: () => [...pending].forEach((c) => c()) };
}
