import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import { BehaviorSubject, combineLatest, distinctUntilChanged, filter, map, scan, shareReplay, tap, type Observable, type SchedulerLike } from 'rxjs';
import type { Informer } from '../informer/informer.js';
import type { Resource } from '../listwatch/resource.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { informerRuns, type InformerRuns } from '../runs/informerRuns.js';
import { crdName, crdReadiness } from './crdReadiness.js';
import { initialCrdFollowStatus, nextCrdFollowStatus, sameCrdFollowStatus, type CrdFollowStatus } from './crdStatus.js';

/**
 * An informer that runs only while its CustomResourceDefinition is established and serves the
 * version asked for (see {@link followCrd}). Usable as a controller's `for`, `owns` or `watches`.
 * `hasSynced()` is true only while `running` and the run has synced; `waitForCacheSync()` waits
 * through `waitingForCrd` and `crdRemoved` (see docs/big-clusters.md for each state).
 *
 * @example
 * ```ts
 * const widgets: CrdFollowingInformer<Widget> = factory.followCrd<Widget>(widgetResource);
 * widgets.status$.subscribe((s) => console.log(s.phase));
 * ```
 */
export interface CrdFollowingInformer<T> extends InformerRuns<T> {
  /** The current status, then each change (replayed to every subscriber). */
  readonly status$: Observable<CrdFollowStatus>;
  status(): CrdFollowStatus;
}

/**
 * Runs the informer `create` builds only while the CRD of `resource` (named `plural.group`) is
 * established and serves `resource.version`, as seen by `crds`, an informer of
 * `customresourcedefinitions`: a `switchMap` from the CRD's readiness to a run of the informer
 * ({@link informerRuns}). A CRD that never becomes established (or that goes mid-list) leaves it
 * waiting: no request is made for the resource until the CRD is ready again, so nothing loops.
 *
 * ```text
 * CRD:     absent ---- created+Established ---------- deleted ------------ created again --
 * status:  waitingForCrd  running                     crdRemoved            running
 * runs:                  [informer #1 ---------------]                     [informer #2 ----
 * ```
 *
 * @example
 * ```ts
 * const crds = informer(listWatch<CustomResourceDefinition>(kc, builtInResources.customResourceDefinitions));
 * const widgets = followCrd(crds, widgetResource, () => informer(listWatch<Widget>(kc, widgetResource)));
 * widgets.start();
 * await widgets.waitForCacheSync({ timeout: 60_000 });
 * ```
 */
export function followCrd<T extends KubeObjectLike>(
  crds: Informer<CustomResourceDefinition>,
  resource: Resource,
  create: () => Informer<T>,
  options: { readonly scheduler?: SchedulerLike } = {},
): CrdFollowingInformer<T> {
  const name = crdName(resource);
  const statusSubject = new BehaviorSubject<CrdFollowStatus>(initialCrdFollowStatus);
  const status$ = combineLatest([crds.synced$, crds.store$]).pipe(
    filter(([synced]) => synced),
    map(([, store]) => crdReadiness(store.getByKey(name), resource)),
    distinctUntilChanged(),
    scan(nextCrdFollowStatus, initialCrdFollowStatus),
    distinctUntilChanged(sameCrdFollowStatus),
    tap((s) => {
      if (!sameCrdFollowStatus(s, statusSubject.value)) statusSubject.next(s);
    }),
    shareReplay({ bufferSize: 1, refCount: true }),
  );
  const runs = informerRuns(
    status$.pipe(map((s) => (s.phase === 'running' ? true : undefined))),
    () => create(),
    { scheduler: options.scheduler, handover: 'stopFirst' },
  );
  return Object.freeze({
    ...runs,
    status$: statusSubject.asObservable(),
    status: () => statusSubject.value,
    hasSynced: () => statusSubject.value.phase === 'running' && runs.hasSynced(),
  });
}
