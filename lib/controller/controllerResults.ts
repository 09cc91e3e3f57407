import { Observable } from 'rxjs';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { controller, type ControllerOptions } from './controller.js';
import type { ReconcileReport } from './reconcileReport.js';

/**
 * A controller as a cold Observable of its {@link ReconcileReport}s (kube-rs's
 * `Controller::run(...)` is a stream the same way): subscribing makes the controller and starts
 * it; unsubscribing stops it (the reconciles in flight finish, their reports are not delivered).
 * The stream completes if the controller stops by itself (its informers did not sync in time).
 * For its other errors (sources, timeouts, leading$), make it with {@link controller} and
 * subscribe to `errors$`.
 *
 * ```text
 * subscribe:  ^---------------------!
 * reports:    ---a--b-----a------c--         (one per reconcile)
 * ```
 *
 * @example
 * ```ts
 * const sub = controllerResults({ for: factory.configMaps(), reconcile }).subscribe((r) => console.log(r.key, r.result, r.seconds));
 * process.on('SIGTERM', () => sub.unsubscribe());
 * ```
 */
export function controllerResults<T extends KubeObjectLike>(options: ControllerOptions<T>): Observable<ReconcileReport> {
  return new Observable<ReconcileReport>((subscriber) => {
    const ctl = controller(options);
    const sub = ctl.results$.subscribe(subscriber);
    ctl.start();
    return () => {
      sub.unsubscribe();
      void ctl.stop();
    };
  });
}
