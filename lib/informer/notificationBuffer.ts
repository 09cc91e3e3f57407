import { ArrayQueue } from '../fifo/arrayQueue.js';
import type { Notification } from './notification.js';

/**
 * One handler's buffer (client-go's `processorListener` ring buffer): notifications waiting for the
 * handler, in order, each with the time it was queued (for `lag$`) and, when asked for, its key
 * (`dropAndResync` keeps a per-key view). Parallel {@link ArrayQueue}s, so a take allocates nothing.
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
  private readonly notifications = new ArrayQueue<Notification<T>>();
  private readonly times = new ArrayQueue<number>();
  private readonly keys = new ArrayQueue<string>();
  /** The key of the notification the last {@link take} returned ('' unless keys are kept). */
  takenKey = '';
  /** When the notification the last {@link take} returned was queued. */
  takenTime = -1;

  constructor(private readonly keepKeys: boolean) {}

  /** How many notifications wait. */
  get length(): number {
    return this.notifications.length;
  }

  /** When the oldest waiting notification was queued (only meaningful when `length > 0`). */
  oldestTime(): number {
    return this.times.peek() ?? -1;
  }

  push(n: Notification<T>, time: number, key: string): void {
    this.notifications.push(n);
    this.times.push(time);
    if (this.keepKeys) this.keys.push(key);
  }

  /** The oldest waiting notification, removed; `takenKey` / `takenTime` describe it. */
  take(): Notification<T> | undefined {
    const n = this.notifications.shift();
    if (n === undefined) return undefined;
    this.takenTime = this.times.shift() ?? -1;
    this.takenKey = this.keepKeys ? (this.keys.shift() ?? '') : '';
    return n;
  }

  /** Drops everything waiting. */
  clear(): void {
    this.notifications.clear();
    this.times.clear();
    this.keys.clear();
  }
}
