import { RxkubeError } from '../errors.js';
import type { AwaitedWrite } from './ownWrites.js';

/**
 * Read-your-own-writes: the informers had not seen the writes of a key's last reconcile within
 * the controller's `readYourWritesTimeout`; the key was reconciled anyway (on what the cache held).
 * Usually a watch that lags or broke, or a write recorded with no (or a foreign) resourceVersion.
 * `pending` lists the writes not seen.
 *
 * @example
 * ```ts
 * ctl.errors$.subscribe((e) => { if (e instanceof OwnWritesTimeoutError) console.warn(e.key, e.pending.length); });
 * ```
 */
export class OwnWritesTimeoutError extends RxkubeError {
  readonly key: string;
  readonly timeoutMs: number;
  readonly pending: ReadonlyArray<AwaitedWrite>;

  constructor(controllerName: string, key: string, timeoutMs: number, pending: ReadonlyArray<AwaitedWrite>) {
    const what = pending
      .slice(0, 3)
      .map((w) => `${w.key}${w.deleted ? ' (deleted)' : w.resourceVersion === undefined ? ' (no resourceVersion)' : `@${w.resourceVersion}`}`)
      .join(', ');
    super(
      'OwnWritesTimeoutError',
      `controller ${JSON.stringify(controllerName)}: the informers had not seen the last writes of ${JSON.stringify(key)} (${what}${
        pending.length > 3 ? `, and ${pending.length - 3} more` : ''
      }) within ${timeoutMs} ms; reconciling it anyway on the cached state`,
    );
    this.key = key;
    this.timeoutMs = timeoutMs;
    this.pending = pending;
  }
}
