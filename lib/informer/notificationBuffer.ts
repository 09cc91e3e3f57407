import { ArrayQueue } from '../fifo/arrayQueue.js';
import type { Notification } from './notification.js';

/**
 * One waiting notification: what to deliver, its key (for `dropAndResync`'s per-key view) and when
 * it was queued (for `lag$`). A class, not a literal (docs/PERFORMANCE.md, "Allocation-site
 * pretenuring"); made only for notifications that wait, never on the inline path.
 *
 * @internal
 */
export class BufferedNotification<T> {
  constructor(
    readonly notification: Notification<T>,
    readonly key: string,
    readonly queuedAt: number,
  ) {}
}

/**
 * One handler's buffer (client-go's `processorListener` ring buffer): notifications waiting for the
 * handler, in order, each with its key and the time it was queued.
 *
 * @internal
 * @example
 * ```ts
 * const buffer = new NotificationBuffer<V1Pod>();
 * buffer.push(addNotification(pod, true), scheduler.now(), 'ns/pod');
 * const next = buffer.take(); // { notification, key, queuedAt }
 * ```
 */
export class NotificationBuffer<T> {
  private readonly entries = new ArrayQueue<BufferedNotification<T>>();

  /** How many notifications wait. */
  get length(): number {
    return this.entries.length;
  }

  /** When the oldest waiting notification was queued (only meaningful when `length > 0`). */
  oldestTime(): number {
    return this.entries.peek()?.queuedAt ?? -1;
  }

  push(n: Notification<T>, time: number, key: string): void {
    this.entries.push(new BufferedNotification(n, key, time));
  }

  /** The oldest waiting notification, removed. */
  take(): BufferedNotification<T> | undefined {
    return this.entries.shift();
  }

  /** Drops everything waiting. */
  clear(): void {
    this.entries.clear();
  }
}
