import { causeMessage, RxkubeError } from '../errors.js';
import { describeValue } from '../meta/describeValue.js';

/**
 * One of a controller's sources of keys errored, completed, emitted something that is not a key,
 * or could not map a change to keys (a predicate or mapper threw: `keysFailed`). The controller
 * goes on with its other sources (an errored or completed source is dropped; a bad emission or
 * change is skipped). A source of the controller's own informers that ends before it has
 * synced counts as synced, so that the controller does not wait for it forever.
 *
 * @example
 * ```ts
 * ctl.errors$.subscribe((e) => { if (e instanceof ControllerSourceError) console.warn(e.source, e.reason); });
 * ```
 */
export class ControllerSourceError extends RxkubeError {
  /** The source's name (`for`, `owns[0]`, `watches[1]`, `sources[0]`, or the name given to `addSource`). */
  readonly source: string;
  readonly reason: 'error' | 'complete' | 'invalidKey' | 'keysFailed';

  constructor(controllerName: string, source: string, reason: 'error' | 'complete' | 'invalidKey' | 'keysFailed', cause?: unknown) {
    const what =
      reason === 'error'
        ? `errored (${causeMessage(cause)}); dropped it, the other sources go on`
        : reason === 'complete'
          ? 'completed; its keys no longer trigger reconciles, the other sources go on'
          : reason === 'keysFailed'
            ? `could not map a change to keys (${causeMessage(cause)}); that change triggers nothing, the source goes on`
            : `emitted ${describeValue(cause)}, not a key (a non-empty string or { key, priority }); skipped`;
    super('ControllerSourceError', `controller ${JSON.stringify(controllerName)}: source ${JSON.stringify(source)} ${what}`, { cause });
    this.source = source;
    this.reason = reason;
  }
}
