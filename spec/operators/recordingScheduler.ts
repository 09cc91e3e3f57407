import { VirtualAction, VirtualTimeScheduler, type SchedulerAction, type Subscription } from 'rxjs';

/**
 * Virtual time (no frame limit) that records every delay handed to `schedule`, and throws once
 * more than `limit` timers were asked for: a timer re-armed at the same instant for ever then
 * fails the test instead of hanging it. The longTimer and dead-watch specs use it.
 */
export class RecordingScheduler extends VirtualTimeScheduler {
  readonly delays: number[] = [];
  constructor(private readonly limit = 2_000_000) {
    super(VirtualAction, Infinity);
  }
  override schedule<S>(work: (this: SchedulerAction<S>, state?: S) => void, delay = 0, state?: S): Subscription {
    if (this.delays.length >= this.limit) throw new Error(`runaway: more than ${this.limit} timers`);
    this.delays.push(delay);
    return super.schedule(work, delay, state);
  }
  /** Runs what is due up to `ms`, then stops the clock there. */
  advanceTo(ms: number): void {
    this.maxFrames = ms;
    this.flush();
  }
  longestDelay(): number {
    return this.delays.reduce((a, b) => Math.max(a, b), 0);
  }
}
