import { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import {
  addNotification,
  deleteNotification,
  updateNotification,
  type Notification,
} from './notification.js';

/**
 * The part of a store snapshot a listener reads to replay objects to a handler: a snapshot never
 * changes, so a replay can walk it lazily while the store moves on. A `Store` snapshot is one.
 *
 * @example
 * ```ts
 * const source: ReplaySource<V1Pod> = informer.getStore();
 * ```
 */
export interface ReplaySource<T> {
  listKeys(): ReadonlyArray<string>;
  getByKey(key: string): T | undefined;
}

/**
 * A handler's periodic resync (client-go's `Sync` deltas, which reach only the handlers due): an
 * `update(obj, obj)` for every object of `snapshot`, handed to `deliver` with its key, in the
 * snapshot's order.
 *
 * @internal
 * @example
 * ```ts
 * resyncReplay(informer.getStore(), (n, key) => listener.push(n, key));
 * ```
 */
export function resyncReplay<T>(
  snapshot: ReplaySource<T>,
  deliver: (n: Notification<T>, key: string) => void,
): void {
  for (const key of snapshot.listKeys()) {
    const obj = snapshot.getByKey(key);
    if (obj !== undefined) deliver(updateNotification(obj, obj), key);
  }
}

/**
 * Brings a handler up to date with a store snapshot, one notification at a time. Without a view
 * (a handler added to a running informer) it is an add per object; with the handler's view it is
 * the difference: deletes for what is gone, adds for what is new, updates for what changed.
 * Internal to the informer's handlers.
 *
 * @internal
 * @example
 * ```ts
 * const replay = new Replay(informer.getStore(), undefined, true, scheduler.now());
 * for (let r = replay.next(); r; r = replay.next()) deliver(r.n, r.key);
 * ```
 */
export class Replay<T> {
  private readonly keys: ReadonlyArray<string>;
  private readonly gone: string[];
  private i = 0;
  private g = 0;

  constructor(
    private readonly snapshot: ReplaySource<T>,
    private readonly view: Map<string, T> | undefined,
    readonly initial: boolean,
    readonly startedAt: number,
  ) {
    this.keys = snapshot.listKeys();
    this.gone = [];
    if (view) for (const k of view.keys()) if (snapshot.getByKey(k) === undefined) this.gone.push(k);
  }

  remaining(): number {
    return this.gone.length - this.g + this.keys.length - this.i;
  }

  next(): { n: Notification<T>; key: string } | undefined {
    while (this.g < this.gone.length) {
      const key = this.gone[this.g++];
      const last = this.view?.get(key);
      if (last !== undefined)
        return { n: deleteNotification<T>(new DeletedFinalStateUnknown(key, last)), key };
    }
    while (this.i < this.keys.length) {
      const key = this.keys[this.i++];
      const obj = this.snapshot.getByKey(key);
      if (obj === undefined) continue;
      const last = this.view?.get(key);
      if (last === undefined) return { n: addNotification(obj, this.initial), key };
      if (last !== obj) return { n: updateNotification(last, obj), key };
    }
    return undefined;
  }
}
