import { asyncScheduler, EMPTY, expand, first, Observable, of, scan, tap } from 'rxjs';
import type { ListWatch } from '../listwatch/listWatch.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { reflectorEffect } from './reflectorEffect.js';
import { WatchEndedError } from './reflectorError.js';
import type { ReflectorInput, StepContext, StepResult } from './reflectorInput.js';
import type { ReflectorState } from './reflectorState.js';
import type { ReflectorOptions } from './reflectorOptions.js';
import type { ReflectorOutput } from './reflectorOutput.js';
import { reflectorConfig } from './reflectorState.js';
import { reflectorStart, reflectorStep } from './reflectorStep.js';

/**
 * The reflector's loop as one cold Observable (what `reflector(listWatch, options).outputs$` is): each subscription runs its own ListAndWatch (client-go's
 * Reflector: list, watch from the list's RV, re-watch after a clean close, relist after 410 or a
 * server error, back off after failures and after every ListAndWatch, follow bookmarks, replace
 * dead watches, optionally start with a streaming list) and tells its subscriber everything on one
 * stream: bursts of events, its status and the errors it recovered from. Unsubscribing aborts the
 * request in flight and every timer. It never errors and never completes.
 *
 * The edge of a pure state machine (kube-rs' `watcher` is the model): the decisions are
 * {@link reflectorStep}, a pure function of the `ReflectorState` and what was observed; each
 * phase's I/O is one effect Observable ({@link reflectorEffect}: a list, a watch, a backoff timer on
 * the injected scheduler) whose inputs `scan` folds through the step until a step enters the next
 * phase, and `expand` starts that phase's effect.
 *
 * ```text
 * list(rv=0)   --p1--p2|
 * watch(rv=10)         ----[A,M]--B--(ERROR 410)
 * backoff                                    ~~~~~~
 * list(rv=40)                                      --p|
 * output       l-------Rw--[a,u]--[b]-----E--b-------l--R-w...   (l, w, b: status; E: error)
 * ```
 *
 * Not exported: its public name is `reflector(listWatch, options).outputs$`, the one name of
 * client-go's Reflector.
 *
 * @internal
 * @example
 * ```ts
 * const sub = reflector(listWatch<V1Pod>(kc, pods), { expectedTypeName: 'Pod' }).outputs$.subscribe((out) => {
 *   if (out.type === 'events') for (const e of out.events) console.log(e.type);
 * });
 * ```
 */
export function reflect<T extends KubeObjectLike>(
  listWatch: ListWatch<T>,
  options: ReflectorOptions = {},
): Observable<ReflectorOutput<T>> {
  return new Observable<ReflectorOutput<T>>((subscriber) => {
    const scheduler = options.scheduler ?? asyncScheduler;
    const ctx: StepContext = {
      config: reflectorConfig(options),
      now: () => scheduler.now(),
      random: options.random ?? Math.random,
    };
    const deliver = (result: StepResult<T>): void => {
      for (const out of result.outputs) subscriber.next(out);
    };
    // One phase: its effect's inputs folded through the step until the first step that enters the
    // next phase; that ends this effect (unsubscribing aborts it). Every effect ends in such a step
    // (a list answers or fails, a watch closes or fails, a timer fires). Outputs are delivered
    // before expand starts the next phase's effect, so its status comes first.
    const phase$ = (entered: StepResult<T>): Observable<StepResult<T>> =>
      subscriber.closed // unsubscribed from inside an output: start nothing more
        ? EMPTY
        : reflectorEffect(listWatch, entered.state, ctx.config.typeName, scheduler).pipe(
            // Seeded with the state alone: scan keeps its seed for as long as the phase lasts, and
            // the entering result's outputs can be a whole list (kept for the watch's life).
            scan((last: StepResult<T>, input) => safeStep(last.state, input, ctx), stateOnly(entered)),
            tap(deliver),
            first((result) => result.entered),
          );
    return of(reflectorStart<T>(ctx)).pipe(tap(deliver), expand(phase$)).subscribe();
  });
}

/**
 * {@link reflectorStep}, failing the phase's request instead of the stream when the step throws (a
 * ListWatch breaking its contract, say a burst that is not an array): the reflector recovers as
 * from a failed list or a malformed watch, and nothing reaches RxJS's unhandled-error path.
 */
function safeStep<T extends KubeObjectLike>(state: ReflectorState<T>, input: ReflectorInput<T>, ctx: StepContext): StepResult<T> {
  try {
    return reflectorStep(state, input, ctx);
  } catch (err) {
    const message = `could not handle a ${input.type} input: ${String(err)}`;
    const failure: ReflectorInput<T> =
      state.phase === 'listing'
        ? { type: 'listFailed', error: err }
        : state.phase === 'watching'
          ? { type: 'watchFailed', error: new WatchEndedError('malformed', message, { cause: err }) }
          : { type: 'timerFired' };
    return reflectorStep(state, failure, ctx);
  }
}

/** A step result holding only `result`'s state: a seed that keeps none of its outputs alive. */
function stateOnly<T>(result: StepResult<T>): StepResult<T> {
  return { state: result.state, outputs: [], entered: false };
}
