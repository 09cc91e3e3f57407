// Test workers for the work queue: each takes keys with get$, holds each for a virtual time, marks
// it done and takes the next; they record what they got and check that no key is held twice.
import { Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { WorkQueue } from '../../lib/workqueue/workQueue.js';

/** Keys held right now, across every worker of a test: a key already there is a violation. */
export class HeldKeys {
  private readonly held = new Set<string>();
  readonly violations: string[] = [];
  maxConcurrent = 0;

  enter(key: string): void {
    if (this.held.has(key)) this.violations.push(key);
    this.held.add(key);
    this.maxConcurrent = Math.max(this.maxConcurrent, this.held.size);
  }

  leave(key: string): void {
    this.held.delete(key);
  }
}

/**
 * A worker as an Observable of the keys it takes (at the time it takes them); completes when the
 * queue hands out nothing more (shut down). `holdMs(key)` is how long it holds each key; `after`
 * runs just before `done` (e.g. to requeue).
 */
export function worker(
  queue: WorkQueue<string>,
  scheduler: SchedulerLike,
  options: { holdMs?: (key: string) => number; held?: HeldKeys; after?: (key: string) => void } = {},
): Observable<string> {
  return new Observable<string>((subscriber) => {
    let current: Subscription | undefined;
    const timers: Subscription[] = [];
    const next = (): void => {
      let got = false;
      current = queue.get$().subscribe({
        next: ({ key }) => {
          got = true;
          options.held?.enter(key);
          subscriber.next(key);
          const finish = () => {
            options.after?.(key);
            options.held?.leave(key);
            queue.done(key);
            next();
          };
          const ms = options.holdMs?.(key) ?? 0;
          if (ms === 0) finish();
          else timers.push(scheduler.schedule(finish, ms));
        },
        complete: () => {
          if (!got) subscriber.complete();
        },
      });
    };
    next();
    return () => {
      current?.unsubscribe();
      for (const t of timers) t.unsubscribe();
    };
  });
}
