import type { Notification } from './notification.js';

/**
 * One handler's buffer (client-go's `processorListener` ring buffer): notifications waiting for the
 * handler, in order, each with the time it was queued (for `lag$`) and, when asked for, its key
 * (`dropAndResync` keeps a per-key view). Parallel arrays consumed from a head index and compacted
 * now and then, so a take allocates nothing.
 *
 * @internal
 * @example
 * ```ts
 * const buffer = new NotificationBuffer<V1Pod>(false);
 * buffer.push(addNotification(pod, true), scheduler.now(), 'ns/pod');
 * const n = buffer.take(); // buffer.takenTime: when it was queued
 * ```
 */
export class NotificationBuffer<T> {
  private q: Array<Notification<T> | undefined> = [];
  private times: number[] = [];
  private keys: string[] = [];
  private head = 0;
  /** The key of the notification the last {@link take} returned ('' unless keys are kept). */
  takenKey = '';
  /** When the notification the last {@link take} returned was queued. */
  takenTime = -1;

  constructor(private readonly keepKeys: boolean) {}

  /** How many notifications wait. */
  get length(): number {
    return this.q.length - this.head;
  }

  /** When the oldest waiting notification was queued (only meaningful when `length > 0`). */
  oldestTime(): number {
    return this.times[this.head];
  }

  push(n: Notification<T>, time: number, key: string): void {
    this.q.push(n);
    this.times.push(time);
    if (this.keepKeys) this.keys.push(key);
  }

  /** The oldest waiting notification, removed; `takenKey` / `takenTime` describe it. */
  take(): Notification<T> | undefined {
    if (this.head >= this.q.length) return undefined;
    const h = this.head++;
    const n = this.q[h];
    this.q[h] = undefined; // not kept alive by the buffer once taken
    this.takenKey = this.keepKeys ? this.keys[h] : '';
    this.takenTime = this.times[h];
    return n;
  }

  /** Drops everything waiting. */
  clear(): void {
    this.q = [];
    this.times = [];
    this.keys = [];
    this.head = 0;
  }

  /** Frees the consumed front once it is most of the arrays (amortised O(1) per notification). */
  compact(): void {
    if (this.head > 0 && this.head === this.q.length) this.clear();
    else if (this.head > 1024 && this.head * 2 > this.q.length) {
      this.q = this.q.slice(this.head);
      this.times = this.times.slice(this.head);
      if (this.keepKeys) this.keys = this.keys.slice(this.head);
      this.head = 0;
    }
  }
}
