// An Angular service over an rxkube informer: the store as an Observable, and a lister's result as
// a signal. In an app, import from 'rxkube'; this example maps 'rxkube' to the sources (tsconfig).
import { DestroyRef, Injectable, computed, inject } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import type { V1Pod } from '@kubernetes/client-node';
import { auditTime, type Observable } from 'rxjs';
import {
  fetchTransport,
  keyedView,
  listed,
  sharedInformerFactory,
  type SharedInformer,
  type Store,
} from 'rxkube';

/**
 * Pods of one namespace, live. The browser reaches the API server through a proxy that adds the
 * credentials (`kubectl proxy --port 8001`, served by the dev server under `/k8s`).
 */
@Injectable({ providedIn: 'root' })
export class PodsService {
  private readonly factory = sharedInformerFactory(fetchTransport({ baseUrl: '/k8s' }), {
    namespace: 'shop',
  });
  private readonly pods: SharedInformer<V1Pod> = this.factory.pods();

  /** Every store snapshot: the current one first, then one per change. */
  readonly store$: Observable<Store<V1Pod>> = this.pods.store$;

  /** The web pods, as a lister lists them; a new array only when the result changes. */
  readonly webPods = toSignal(this.store$.pipe(listed<V1Pod>('app=web')), { initialValue: [] });

  /** Pods by phase, recomputed at most twice a second. */
  readonly byPhase = toSignal(
    this.store$.pipe(
      auditTime(500),
      keyedView((pod: V1Pod) => pod.status?.phase),
    ),
    { initialValue: new Map<string, ReadonlyArray<V1Pod>>() },
  );

  /** True once the first list has arrived. */
  readonly synced = toSignal(this.pods.synced$, { initialValue: false });

  readonly runningCount = computed(() => this.byPhase().get('Running')?.length ?? 0);
  readonly webPodNames = computed(() => this.webPods().map((pod) => pod.metadata?.name ?? ''));

  constructor() {
    this.factory.start();
    inject(DestroyRef).onDestroy(() => void this.factory.shutdown());
  }
}
