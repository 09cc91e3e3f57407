import { asyncScheduler, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { RxkubeError } from '../errors.js';

/**
 * Options of {@link waitFor}.
 *
 * @example
 * ```ts
 * const options: WaitForOptions = { timeout: 2000, interval: 20, description: 'the ConfigMap to be collected' };
 * ```
 */
export interface WaitForOptions {
  /** How long to wait before rejecting, in ms of `scheduler` time. Default 5000. */
  readonly timeout?: number;
  /** How often to check, in ms. Default 10. */
  readonly interval?: number;
  /** Also check whenever this emits (e.g. an informer's events), besides every `interval`. */
  readonly changes?: Observable<unknown>;
  /** What is awaited, for the timeout error; default the condition's source text. */
  readonly description?: string;
  /** Clock and timers. Default `asyncScheduler`; a `TestScheduler` makes the wait virtual. */
  readonly scheduler?: SchedulerLike;
}

/**
 * {@link waitFor} gave up: the condition was still not met after `timeoutMs`.
 *
 * @example
 * ```ts
 * try {
 *   await waitFor(() => false, { timeout: 10 });
 * } catch (e) {
 *   if (e instanceof WaitForTimeoutError) console.log(e.description, e.timeoutMs, e.lastError);
 * }
 * ```
 */
export class WaitForTimeoutError extends RxkubeError {
  constructor(
    /** What was awaited. */
    readonly description: string,
    readonly timeoutMs: number,
    /** The last error the condition threw, if its last check threw. */
    readonly lastError: unknown,
    /** The last value the condition returned (falsy). */
    readonly lastValue: unknown,
  ) {
    const why = lastError !== undefined ? `; last check threw: ${lastError instanceof Error ? lastError.message : String(lastError)}` : `; last value: ${describe(lastValue)}`;
    super('WaitForTimeoutError', `waitFor timed out after ${timeoutMs} ms waiting for ${description}${why}`, { cause: lastError });
  }
}

function describe(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

type Falsy = false | 0 | '' | null | undefined;

/**
 * Waits until `condition` returns a truthy value (or a promise of one) and resolves with it;
 * rejects with a {@link WaitForTimeoutError} after `timeout` ms. A condition that throws counts as
 * not met (its last error is in the timeout error). Checks at once, then every `interval` ms on the
 * scheduler and on every emission of `changes`; at most one check runs at a time. Nothing stays
 * scheduled once it settles.
 *
 * @example
 * ```ts
 * import { startFakeApiServer, waitFor } from 'rxkube/testing';
 *
 * const api = await startFakeApiServer();
 * api.create('configmaps', { metadata: { name: 'owner', namespace: 'default' } });
 * // ... the controller under test creates a dependent; then:
 * const cm = await waitFor(() => api.get('configmaps', 'default', 'dependent'), { timeout: 2000, description: 'the dependent ConfigMap' });
 * console.log(cm.metadata.uid);
 * await api.close();
 * ```
 */
export function waitFor<T>(condition: () => T | PromiseLike<T>, options: WaitForOptions = {}): Promise<Exclude<Awaited<T>, Falsy>> {
  const timeout = options.timeout ?? 5000;
  const interval = Math.max(1, options.interval ?? 10);
  const scheduler = options.scheduler ?? asyncScheduler;
  const description = options.description ?? `\`${condition.toString().replace(/\s+/g, ' ').slice(0, 200)}\``;
  return new Promise((resolve, reject) => {
    let settled = false;
    let checking = false;
    let again = false;
    let lastError: unknown;
    let lastValue: unknown;
    const subs: Subscription[] = [];
    const finish = (f: () => void) => {
      if (settled) return;
      settled = true;
      for (const s of subs) s.unsubscribe();
      f();
    };
    const check = async (): Promise<void> => {
      if (settled) return;
      if (checking) {
        again = true;
        return;
      }
      checking = true;
      try {
        const v = await condition();
        lastError = undefined;
        lastValue = v;
        if (v) finish(() => resolve(v as Exclude<Awaited<T>, Falsy>));
      } catch (e) {
        lastError = e;
      } finally {
        checking = false;
      }
      if (again) {
        again = false;
        void check();
      }
    };
    subs.push(scheduler.schedule(() => finish(() => reject(new WaitForTimeoutError(description, timeout, lastError, lastValue))), timeout));
    subs.push(
      scheduler.schedule(function (this: { schedule(state?: unknown, delay?: number): void }) {
        void check();
        if (!settled) this.schedule(undefined, interval);
      }, interval),
    );
    if (options.changes) subs.push(options.changes.subscribe({ next: () => void check(), error: () => undefined }));
    void check();
  });
}
