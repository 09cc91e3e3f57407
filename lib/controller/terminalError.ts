import { RxkubeError } from '../errors.js';

/**
 * Thrown by a reconcile to say "retrying will not help" (controller-runtime's
 * `reconcile.TerminalError`): the key is not requeued, its rate-limiter memory is forgotten, and
 * the error is reported on `errors$` and counted in `controller_runtime_terminal_reconcile_errors_total`.
 * A later change of the object triggers a reconcile as usual.
 *
 * @example
 * ```ts
 * const reconcile: Reconciler<V1Deployment> = (key, { object }) => {
 *   if (object?.spec?.replicas === undefined) throw new TerminalError(`${key} has no spec.replicas: fix the manifest`);
 * };
 * ```
 */
export class TerminalError extends RxkubeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('TerminalError', message, options);
  }
}
