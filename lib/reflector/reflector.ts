import { BehaviorSubject, Observable, Subject, Subscription } from 'rxjs';
import type { ListWatch } from '../listwatch/listWatch.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { reflect } from './reflect.js';
import type { ReflectorBurst } from './reflectorBurst.js';
import type { ReflectorError } from './reflectorError.js';
import type { ReflectorEvent } from './reflectorEvent.js';
import type { ReflectorOptions } from './reflectorOptions.js';
import type { ReflectorOutput } from './reflectorOutput.js';
import type { ReflectorStatus } from './reflectorStatus.js';

// The options live in their own module; re-exported here, where they were first defined.
export {
  defaultExpectedBookmarkIntervalMs,
  initialEventsEndAnnotation,
  type ReflectorOptions,
} from './reflectorOptions.js';

/**
 * A reflector: `outputs$`, `bursts$` and `events$` are cold (each subscription runs its own
 * ListAndWatch loop; unsubscribing aborts the request in flight and every timer). `status$`,
 * `errors$` and `resourceVersion$` are hot side channels, shared by every running subscription of
 * `bursts$` / `events$` (subscribe to them first; normally there is one subscription, the FIFO's).
 * With more than one, use `outputs$`, whose one stream per subscription carries events, status and
 * errors together.
 *
 * @example
 * ```ts
 * const r = reflector(listWatch, { expectedTypeName: 'Pod' });
 * r.errors$.subscribe((e) => console.warn(e.message));
 * r.events$.subscribe((e) => console.log(e.type));
 * ```
 */
export interface Reflector<T> {
  /**
   * The events in bursts: a list is one burst (its `replace`), the events of one watch chunk are
   * one burst. In server order; never empty; never errors (retries forever).
   */
  readonly bursts$: Observable<ReflectorBurst<T>>;
  /** replace / add / update / delete / bookmark one by one: `bursts$` flattened. */
  readonly events$: Observable<ReflectorEvent<T>>;
  /**
   * What the reflector is doing (listing, watching, backing off and why). Replays the current
   * status; `idle` once no subscription runs.
   */
  readonly status$: Observable<ReflectorStatus>;
  /** Every error met, with what was done about it. */
  readonly errors$: Observable<ReflectorError>;
  /**
   * The last-sync resource version each time it moves: after a list, and after each watch event
   * (client-go's `UpdateResourceVersion`). Each running subscription reports its own here.
   */
  readonly resourceVersion$: Observable<string>;
  /**
   * The loop itself, everything on one stream: each subscription runs its own ListAndWatch and gets
   * its bursts (with the resource versions each moved to), its status and the errors it recovered
   * from, in order. Nothing is shared between subscriptions (the side channels above are not fed by
   * it). Never errors, never completes.
   */
  readonly outputs$: Observable<ReflectorOutput<T>>;
}

/**
 * client-go's Reflector as Observables: list (paged), then watch from the list's RV; re-watch after
 * a clean close; relist after 410 Expired, a 500, or any other server error; back off after every
 * failure and after every ListAndWatch (800 ms, x2, jitter 1.0, cap 30 s, reset after 2 min);
 * honour `Retry-After` on 429; follow bookmarks; detect dead watches; optionally start with a
 * streaming list (watch-list) and fall back to list+watch when the server refuses it.
 *
 * ```text
 * list(rv=0)   --p1--p2|
 * watch(rv=10)         ----A--M--B--(ERROR 410)
 * backoff                                       ~~~~~~
 * list(rv=40)                                         --p|
 * events$      --------R---a--u--b-------------------R----...
 * ```
 *
 * `bursts$` is `outputs$` (one stream per subscription) with its outputs split into `bursts$` and
 * the side channels; prefer `outputs$` when more than one subscription may run.
 *
 * @example
 * ```ts
 * const pods = reflector(listWatch(kubeConfig, pods), { expectedTypeName: 'Pod' });
 * const sub = pods.events$.subscribe((event) => fifoInput.next(event));
 * // later: sub.unsubscribe() aborts the watch and every timer
 * ```
 */
export function reflector<T extends KubeObjectLike>(
  listWatch: ListWatch<T>,
  options: ReflectorOptions = {},
): Reflector<T> {
  const status = new BehaviorSubject<ReflectorStatus>(idle);
  const errors = new Subject<ReflectorError>();
  const resourceVersions = new Subject<string>();
  let running = 0;
  const bursts$ = new Observable<ReflectorBurst<T>>((subscriber) => {
    running++;
    const run = new Subscription(() => {
      // idle only when no subscription runs any more, not when one of several leaves
      if (--running === 0) status.next(idle);
    });
    run.add(
      reflect(listWatch, options).subscribe((out) => {
        if (out.type === 'events') {
          subscriber.next(out.events);
          if (resourceVersions.observed) for (const rv of out.resourceVersions) resourceVersions.next(rv);
        } else if (out.type === 'status') status.next(out.status);
        else errors.next(out.error);
      }),
    );
    return run;
  });
  const events$ = new Observable<ReflectorEvent<T>>((subscriber) =>
    bursts$.subscribe((burst) => {
      for (const event of burst) subscriber.next(event);
    }),
  );
  return {
    bursts$,
    events$,
    status$: status.asObservable(),
    errors$: errors.asObservable(),
    resourceVersion$: resourceVersions.asObservable(),
    outputs$: reflect(listWatch, options),
  };
}

const idle: ReflectorStatus = Object.freeze({ state: 'idle' });
