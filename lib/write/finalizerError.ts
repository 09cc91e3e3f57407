import { RxkubeError } from '../errors.js';

/**
 * The {@link finalizer} flow could not write the finalizer change: adding it before the first
 * apply (usually a conflict, 409 or a failed `test`, 422: nothing was lost, the object's next event
 * or the controller's retry runs the flow again on the fresh object), or removing it after a
 * successful cleanup for another reason than a 404 (gone: done) or a stale version it could
 * resolve (those are retried without rerunning cleanup).
 *
 * @example
 * ```ts
 * try { await finalizer({ ... }); } catch (e) { if (e instanceof FinalizerError) console.log(e.step, e.cause); }
 * ```
 */
export class FinalizerError extends RxkubeError {
  /** Which write failed. */
  readonly step: 'add' | 'remove';
  /** The finalizer's name. */
  readonly finalizer: string;

  constructor(step: 'add' | 'remove', finalizer: string, objectName: string, cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    const what = step === 'add' ? `adding finalizer ${finalizer} to ${objectName} (before apply)` : `removing finalizer ${finalizer} from ${objectName} (after cleanup)`;
    super('FinalizerError', `${what} failed; retry the reconcile (it runs again on the fresh object): ${why}`, { cause });
    this.step = step;
    this.finalizer = finalizer;
  }
}
