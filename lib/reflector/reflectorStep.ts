import type { KubeObjectLike } from '../meta/kubeObject.js';
import { isExpiredError, isTooLargeResourceVersionError } from './errorClassification.js';
import type { ListResult } from './listAll.js';
import type { ReflectorInput, StepContext, StepResult } from './reflectorInput.js';
import type { ReflectorOutput } from './reflectorOutput.js';
import {
  initialCarried,
  type ListingPhase,
  type ReflectorCarried,
  type ReflectorState,
} from './reflectorState.js';
import {
  backOff,
  endWatch,
  enterListAndWatch,
  enterListing,
  enterWatch,
  report,
  resume,
} from './reflectorTransitions.js';
import { isValidResourceVersion } from './relistResourceVersion.js';
import { watchBurstStep } from './watchBurstStep.js';

/**
 * The reflector's first step: nothing listed yet, a ListAndWatch begins (a list at `"0"`, or a
 * streaming list with `useWatchList`). Pure.
 *
 * @example
 * ```ts
 * const first = reflectorStart<V1Pod>({ config: reflectorConfig({}), now: () => 0, random: () => 0 });
 * first.state.phase; // 'listing'
 * ```
 */
export function reflectorStart<T>(ctx: StepContext): StepResult<T> {
  const outputs: ReflectorOutput<T>[] = [];
  const state = enterListAndWatch<T>(initialCarried(ctx.config), ctx, outputs);
  return { state, outputs, entered: true };
}

/**
 * The reflector's step, client-go's Reflector decisions as a pure function (kube-rs' `watcher`
 * step is the model): from a state and what the edge observed, the next state and what to tell the
 * subscriber. Time and randomness come from `ctx`, so a test drives it with constants and no
 * Observables. An input the current phase does not expect changes nothing.
 *
 * | phase | input | next |
 * |---|---|---|
 * | listing | listed | watching (a `replace` first) |
 * | listing | listFailed: 410 / too large RV (once) | listing at `""` at once |
 * | listing | listFailed: anything else | backingOff, then a new ListAndWatch |
 * | watching | burst | watching (the burst's events), or what an ending event decides |
 * | watching | watchClosed | watching again from the last RV, or backingOff if very short |
 * | watching | watchFailed | backingOff (relist, rewatch), or a streaming list's restart or fallback |
 * | backingOff | timerFired | what the backoff was for |
 *
 * @example
 * ```ts
 * let { state } = reflectorStart<V1Pod>(ctx);
 * ({ state } = reflectorStep(state, { type: 'listed', result: { items: [], resourceVersion: '10', paginated: false } }, ctx));
 * state.phase; // 'watching'
 * ```
 */
export function reflectorStep<T extends KubeObjectLike>(
  state: ReflectorState<T>,
  input: ReflectorInput<T>,
  ctx: StepContext,
): StepResult<T> {
  switch (state.phase) {
    case 'listing':
      if (input.type === 'listed') return listed(state, input.result, ctx);
      if (input.type === 'listFailed') return listFailed(state, input.error, ctx);
      break;
    case 'watching':
      if (input.type === 'burst') return watchBurstStep(state, input.events, ctx);
      if (input.type === 'watchClosed' || input.type === 'watchFailed') {
        const outputs: ReflectorOutput<T>[] = [];
        const error = input.type === 'watchFailed' ? input.error : undefined;
        return { state: endWatch(state, error, ctx, outputs), outputs, entered: true };
      }
      break;
    case 'backingOff':
      if (input.type === 'timerFired') {
        const outputs: ReflectorOutput<T>[] = [];
        return { state: resume(state, state.then, ctx, outputs), outputs, entered: true };
      }
      break;
  }
  return { state, outputs: [], entered: false };
}

/** The list answered: one `replace` at its RV, then a watch from there. */
function listed<T>(
  s: ListingPhase & ReflectorCarried,
  result: ListResult<T>,
  ctx: StepContext,
): StepResult<T> {
  const valid = isValidResourceVersion(result.resourceVersion);
  const rv = {
    lastSyncResourceVersion: valid ? result.resourceVersion : s.rv.lastSyncResourceVersion,
    unavailable: false,
    paginatedResult: s.rv.paginatedResult || (s.resourceVersion === '0' && result.paginated),
  };
  const outputs: ReflectorOutput<T>[] = [
    {
      type: 'events',
      // listAll's own fresh array: frozen in place rather than copied
      events: [
        { type: 'replace', items: Object.freeze(result.items), resourceVersion: result.resourceVersion },
      ],
      resourceVersions: valid ? [result.resourceVersion] : [],
    },
  ];
  const state = enterWatch<T>({ rv, malformedAt: s.malformedAt, backoff: s.backoff }, ctx, outputs);
  return { state, outputs, entered: true };
}

/** The list failed: once at `""` if its RV was expired or too large, else back off and start over. */
function listFailed<T>(s: ListingPhase & ReflectorCarried, err: unknown, ctx: StepContext): StepResult<T> {
  const outputs: ReflectorOutput<T>[] = [];
  let state: ReflectorState<T>;
  if ((isExpiredError(err) || isTooLargeResourceVersionError(err)) && !s.fromLatest) {
    // The RV is compacted or ahead of this server: list once more, consistently, at "".
    report(ctx, outputs, 'list', 'listFromLatest', err);
    state = enterListing(
      { rv: { ...s.rv, unavailable: true }, malformedAt: s.malformedAt, backoff: s.backoff },
      true,
      ctx,
      outputs,
    );
  } else {
    state = backOff(s, report(ctx, outputs, 'list', 'relist', err), 'listAndWatch', ctx, outputs);
  }
  return { state, outputs, entered: true };
}
