import type { SchedulerLike, Subscription } from 'rxjs';
import { maxTimerDelayMs } from '../timers/longTimer.js';
import { BinaryHeap } from './binaryHeap.js';
import type { CoreQueue } from './coreQueue.js';

interface WaitingEntry<T> {
  readonly key: T;
  readonly readyAt: number;
  readonly priority: number;
  readonly seq: number;
}

/**
 * The delaying layer (client-go's `delayingType`, with controller-runtime's merge rules): keys
 * added for later wait in a heap by ready time and go to the {@link CoreQueue} when it comes. A key
 * has at most one pending entry: the earliest ready time and the highest priority win, and an add
 * now takes the pending entry's priority if that is higher.
 *
 * ```text
 * addAfter(b, 50) addAfter(b, 20)        b ready at 20, once
 * addAfter(k, 29, p-1) add(k, p-2)       k ready now at p-1
 * ```
 *
 * @internal
 * @example
 * ```ts
 * const delaying = delayingQueue(core, asyncScheduler);
 * delaying.addAfter('ns/a', 5000, 0);
 * ```
 */
export interface DelayingQueue<T> {
  /** Ready now (merging a pending delayed add of the key). */
  add(key: T, priority: number): void;
  /** Ready after `delay` ms (0 or less: now; `Infinity`: never, and no timer). */
  addAfter(key: T, delay: number, priority: number): void;
  /** Drops every pending key and its timer. */
  shutDown(): void;
  /** Keys waiting for their ready time. */
  waiting(): number;
}

/**
 * Creates a {@link DelayingQueue} over `core`, its one timer on `scheduler` at the earliest ready
 * time (client-go also re-checks every 10 s; a scheduler timer is exact, so there is no heartbeat).
 *
 * @internal
 * @example
 * ```ts
 * const delaying = delayingQueue(coreQueue<string>('pods', scheduler, metrics), scheduler);
 * ```
 */
export function delayingQueue<T>(core: CoreQueue<T>, scheduler: SchedulerLike): DelayingQueue<T> {
  const waiting = new Map<T, WaitingEntry<T>>();
  const heap = new BinaryHeap<WaitingEntry<T>>((a, b) => (a.readyAt !== b.readyAt ? a.readyAt < b.readyAt : a.seq < b.seq));
  let seq = 0;
  let stopped = false;
  let timer: { subscription: Subscription; at: number; exact: boolean } | undefined;

  const add = (key: T, priority: number) => {
    // Ready now is the earliest time: a pending delayed add is moot, but its priority is not.
    const pending = waiting.size === 0 ? undefined : waiting.get(key);
    if (pending !== undefined) {
      waiting.delete(key);
      if (pending.priority > priority) priority = pending.priority;
    }
    core.add(key, priority);
  };

  const addAfter = (key: T, delay: number, priority: number) => {
    if (delay <= 0) {
      add(key, priority);
      return;
    }
    const queued = core.queuedPriority(key);
    if (queued !== undefined) {
      // Already queued to run sooner: keep the higher priority only.
      if (queued < priority) core.add(key, priority);
      return;
    }
    const readyAt = scheduler.now() + delay;
    const current = waiting.get(key);
    if (current !== undefined && current.readyAt <= readyAt) {
      if (current.priority < priority) waiting.set(key, { ...current, priority });
      return;
    }
    const entry = { key, readyAt, priority: Math.max(priority, current?.priority ?? priority), seq: seq++ };
    waiting.set(key, entry);
    heap.push(entry);
    armTimer();
  };

  const armTimer = () => {
    let head = heap.peek();
    while (head !== undefined && waiting.get(head.key)?.seq !== head.seq) {
      heap.pop();
      head = heap.peek();
    }
    // A key ready at Infinity never needs a timer (one would keep the process alive for ever): it
    // leaves by shutDown or by being added again sooner. The heap puts every such key last.
    if (head === undefined || head.readyAt === Infinity || stopped) {
      timer?.subscription.unsubscribe();
      timer = undefined;
      return;
    }
    if (timer !== undefined && timer.at <= head.readyAt) return;
    timer?.subscription.unsubscribe();
    const at = head.readyAt;
    const delay = Math.max(0, at - scheduler.now());
    // At most the timer limit ahead (a longer timer would fire after 1 ms, again and again): such
    // a timer is not `exact`, and fireTimer() finds nothing due yet and re-arms.
    const exact = delay <= maxTimerDelayMs;
    timer = { at, exact, subscription: scheduler.schedule(fireTimer, exact ? delay : maxTimerDelayMs) };
  };

  const fireTimer = () => {
    // The time an exact timer was armed for has come, even when now() says a hair less (fractional
    // virtual time): else nothing would be due and the timer would re-arm at once, for ever.
    const armedFor = timer?.exact ? timer.at : -Infinity;
    timer = undefined;
    const t = Math.max(scheduler.now(), armedFor);
    for (let head = heap.peek(); head !== undefined && head.readyAt <= t; head = heap.peek()) {
      heap.pop();
      const current = waiting.get(head.key);
      if (current?.seq !== head.seq) continue;
      waiting.delete(head.key);
      core.add(head.key, current.priority);
    }
    armTimer();
  };

  return {
    add,
    addAfter,
    shutDown() {
      stopped = true;
      waiting.clear();
      heap.clear();
      armTimer();
    },
    waiting: () => waiting.size,
  };
}
