import { catchError, concatMap, defer, distinctUntilChanged, from, of, type Subscription } from 'rxjs';
import type { LeaderElector } from './leaderElection.js';

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
 * A controller run only while leading (returned by {@link runWhileLeading}).
 *
 * @example
 * ```ts
 * const run: LeaderRun = runWhileLeading(elector, workers);
 * process.on('SIGTERM', () => void run.stop());
 * ```
 */
export interface LeaderRun {
  /** Stops the workers (drained), then the elector (releasing the Lease when configured to). */
  stop(): Promise<void>;
}

/**
 * Runs `workers` only while `elector` leads (controller-runtime's leader-election runnables): they
 * start when leadership is acquired and stop, drained, when it is lost; a start waits for the
 * previous stop to finish draining, so two terms of this replica never overlap. Start the
 * informers first: they warm up (list, watch, fill the cache) before leadership, and a new leader
 * starts reconciling from a full cache. `stop()` drains the workers BEFORE the elector releases,
 * so that the next leader never runs alongside this one's last reconciles.
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
export function runWhileLeading(elector: LeaderElector, workers: Workers): LeaderRun {
  let running = false;
  const sub: Subscription = elector.leading$
    .pipe(
      distinctUntilChanged(),
      concatMap((leading) =>
        defer(() => {
          if (leading && !running) {
            running = true;
            workers.start();
            return from([undefined]);
          }
          if (!leading && running) {
            running = false;
            // A failing stop is the workers' to report; leadership goes on being followed.
            return from(workers.stop()).pipe(catchError(() => of(undefined)));
          }
          return from([undefined]);
        }),
      ),
    )
    .subscribe();
  return {
    async stop() {
      sub.unsubscribe();
      if (running) {
        running = false;
        await workers.stop();
      }
      await elector.stop();
    },
  };
}
