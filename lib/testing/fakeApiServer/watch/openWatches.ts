import type { ResourceRef, ResourceType } from '../resources.js';
import type { WatchHub } from './watchHub.js';

/** Counts the open watches and wakes the callers waiting for some; see {@link watchCounter}. */
export interface WatchCounter {
  /** Number of open watches, of one resource or all. */
  openWatches(resource?: ResourceRef): number;
  /** Resolves once at least `count` watches of `resource` (or of any resource) are open. */
  waitForWatches(count?: number, resource?: ResourceRef): Promise<void>;
  /** Forgets the waiting callers (at close: they never resolve). */
  clear(): void;
}

/** Counts the open watches of `hub` (`resolve` names a user's resource reference); every watch the hub adds wakes the waiting callers. */
export function watchCounter(hub: WatchHub, resolve: (ref: ResourceRef) => ResourceType): WatchCounter {
  const watchWaiters = new Set<() => void>();
  const notifyWatchers = () => [...watchWaiters].forEach((w) => w());
  const hubAdd = hub.add.bind(hub);
  hub.add = (s) => {
    hubAdd(s);
    notifyWatchers();
  };
  const openWatches = (resource?: ResourceRef): number => {
    const id = resource === undefined ? undefined : resolve(resource).id;
    return hub.all().filter((s) => s.isOpen && (id === undefined || s.type.id === id)).length;
  };
  return {
    openWatches,
    waitForWatches: (count = 1, resource) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (openWatches(resource) >= count) {
            watchWaiters.delete(check);
            resolve();
          }
        };
        watchWaiters.add(check);
        check();
      }),
    clear: () => watchWaiters.clear(),
  };
}
