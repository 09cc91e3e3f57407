import { concatMap, defer, distinctUntilChanged, EMPTY, from, Subject, type Observable, type Subscription } from 'rxjs';
import type { RxkubeError } from '../errors.js';
import { errorLogger, type LoggerOption } from '../logging/errorLogger.js';
import type { LeaderElector } from './leaderElection.js';
import { LeaderWorkersError } from './leaderElectionErrors.js';

/**
 * What leader election needs of a controller: start taking work, and stop taking it with a
 * Promise that resolves once the work in flight has finished (drained). Informers are the
 * controller's business and keep running (warm) either way.
 *
 * @example
 * ```ts
 * const workers: Workers = { start: () => controller.startWorkers(), stop: () => controller.stopWorkers() };
 * ```
 */
export interface Workers {
  start(): void;
  stop(): Promise<void>;
}

/**
 * Options of {@link runWhileLeading}.
 *
 * @example
 * ```ts
 * const options: RunWhileLeadingOptions = { logger: false };
 * ```
 */
export interface RunWhileLeadingOptions {
  /**
   * Where `errors$` is logged (its one subscriber): unset logs to `console.error`, rate-limited,
   * unless `RXKUBE_LOG=off`; `false` logs nothing.
   */
  readonly logger?: LoggerOption;
}

/**
 * A controller run only while leading (returned by {@link runWhileLeading}).
 *
 * @example
 * ```ts
 * const run: LeaderRun = runWhileLeading(elector, workers);
 * process.on('SIGTERM', () => void run.stop());
 * ```
 */
export interface LeaderRun {
  /**
   * Stops the workers (drained), then the elector (releasing the Lease when configured to). The
   * elector stops even if the workers' stop fails; the returned Promise then rejects with that failure.
   */
  stop(): Promise<void>;
  /**
   * The workers' failures, as {@link LeaderWorkersError}s: a `start()` that threw (leadership is
   * then given up: the elector is stopped) and a `stop()` that threw or rejected. Completes when
   * the run stops.
   */
  readonly errors$: Observable<RxkubeError>;
}

/**
 * Runs `workers` only while `elector` leads (controller-runtime's leader-election runnables): they
 * start when leadership is acquired and stop, drained, when it is lost; a start waits for the
 * previous stop to finish draining, so two terms of this replica never overlap. Start the
 * informers first: they warm up (list, watch, fill the cache) before leadership, and a new leader
 * starts reconciling from a full cache. `stop()` drains the workers BEFORE the elector releases,
 * so that the next leader never runs alongside this one's last reconciles.
 *
 * Failures are reported on `errors$` as {@link LeaderWorkersError}s, never thrown, and logged by
 * its one default subscriber (`options.logger`). A `start()`
 * that throws gives up leadership: the elector is stopped (releasing the Lease when configured to),
 * so that another replica can lead. A `stop()` that throws or rejects counts as stopped.
 *
 * ```text
 * leading$: f----t---------f-----t----
 * workers:  -----start-----stop(drain)-start
 * ```
 *
 * @example
 * ```ts
 * pods.start();                                  // warm up
 * const run = runWhileLeading(elector, workers); // subscribe before start
 * elector.start();
 * ```
 */
export function runWhileLeading(elector: LeaderElector, workers: Workers, options: RunWhileLeadingOptions = {}): LeaderRun {
  let running = false;
  const errors = new Subject<RxkubeError>();
  // The log is one subscriber of errors$ (no second error channel).
  errors.subscribe(errorLogger(options.logger));
  // A failing stop (a throw, a rejection) is reported; leadership goes on being followed.
  const stopWorkers = (): Observable<void> =>
    defer(async () => {
      try {
        await workers.stop();
      } catch (e) {
        errors.next(new LeaderWorkersError('stop', e));
      }
    });
  const follow = (leading: boolean): Observable<unknown> => {
    if (leading && !running) {
      try {
        workers.start();
        running = true;
      } catch (e) {
        // Workers that cannot start must not hold the lease: another replica may be able to.
        errors.next(new LeaderWorkersError('start', e));
        // The elector reports its own failures (on its errors$).
        return from(elector.stop().catch(() => undefined));
      }
    }
    if (!leading && running) {
      running = false;
      return stopWorkers();
    }
    return EMPTY;
  };
  const sub: Subscription = elector.leading$
    .pipe(
      distinctUntilChanged(),
      concatMap((leading) => defer(() => follow(leading))),
    )
    .subscribe();
  return {
    errors$: errors.asObservable(),
    async stop() {
      sub.unsubscribe();
      try {
        if (running) {
          running = false;
          await workers.stop();
        }
      } finally {
        // Released even when the workers' stop failed (that failure is the caller's to see).
        await elector.stop();
        errors.complete();
      }
    },
  };
}
