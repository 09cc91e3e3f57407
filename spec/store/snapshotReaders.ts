import { skip, take, type Subscription } from 'rxjs';
import type { Store } from '../../lib/store/store.js';
import type { StoreWriter } from '../../lib/store/storeWriter.js';
import { expectEqual } from '../support/expectEqual.js';

/**
 * The ways a snapshot is handed out of a {@link StoreWriter}, for the random tests of the store
 * specs: each records what the snapshot held when it was handed out, and {@link expectUnchanged}
 * checks that every one still holds it.
 */
export class SnapshotReaders<T> {
  private readonly kept: Array<{ store: Store<T>; was: unknown }> = [];
  private readonly seen = new WeakSet<Store<T>>();
  private handedOut = 0;
  private sub: Subscription | undefined;

  constructor(
    private readonly writer: StoreWriter<T>,
    /** Everything a reader can see of a snapshot, as plain data. */
    private readonly contents: (store: Store<T>) => unknown,
  ) {}

  /** Whether a lasting `store$` subscriber is there. */
  get subscribed(): boolean {
    return this.sub !== undefined;
  }

  /** How many snapshots were handed out. */
  get count(): number {
    return this.handedOut;
  }

  /** Takes the current snapshot through `current`. */
  takeCurrent(): void {
    this.keep(this.writer.current);
  }

  /** Subscribes to `store$` until {@link leave}: the current snapshot, then every new one. */
  subscribe(): void {
    this.sub = this.writer.store$.subscribe((store) => this.keep(store));
  }

  /** The lasting subscriber leaves. */
  leave(): void {
    this.sub?.unsubscribe();
    this.sub = undefined;
  }

  /** Takes the next snapshot and leaves while receiving it (`take(1)`). */
  takeNext(): void {
    this.writer.store$.pipe(skip(1), take(1)).subscribe((store) => this.keep(store));
  }

  /** Every snapshot handed out still holds what it held then (the lasting subscriber leaves first). */
  expectUnchanged(): void {
    this.leave();
    for (const { store, was } of this.kept) expectEqual(this.contents(store), was);
  }

  private keep(store: Store<T>): void {
    this.handedOut++;
    // A snapshot handed out again is checked once, against what it held the first time: a batch
    // that wrongly edits it in place leaves it changed for good, so the final check still sees it.
    if (this.seen.has(store)) return;
    this.seen.add(store);
    this.kept.push({ store, was: this.contents(store) });
  }
}
