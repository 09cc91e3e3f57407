// The app's one informer: every pod of the cluster, kept by rxkube, exposed as Observables that
// components turn into signals (toSignal) for as long as they are on screen.
import { DestroyRef, Injectable, inject } from '@angular/core';
import type { V1Pod } from '@kubernetes/client-node';
import { auditTime, distinctUntilChanged, map, type Observable } from 'rxjs';
import { fetchTransport, lister, listed, sharedInformerFactory, type SharedInformer, type Store } from 'rxkube';
import { KUBE_API } from './kube-api';

const sameStrings = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean =>
  a.length === b.length && a.every((s, i) => s === b[i]);

@Injectable({ providedIn: 'root' })
export class PodsService {
  private readonly api = inject(KUBE_API);
  private readonly factory = sharedInformerFactory(fetchTransport({ baseUrl: this.api.baseUrl }));
  private readonly pods: SharedInformer<V1Pod> = this.factory.pods();

  /** Every store snapshot: the current one first (replayed to each subscriber), then one per change. */
  readonly store$: Observable<Store<V1Pod>> = this.pods.store$;

  /** `false`, then `true` once the first list is in. */
  readonly synced$: Observable<boolean> = this.pods.synced$;

  /** The namespaces that have pods, sorted; recomputed at most 4 times a second. */
  readonly namespaces$: Observable<ReadonlyArray<string>> = this.store$.pipe(
    auditTime(250),
    map((store) => store.listIndexFuncValues('namespace').sort()),
    distinctUntilChanged(sameStrings),
  );

  /** The pods of one namespace; a new array only when one of them changes. */
  podsIn$(namespace: string): Observable<ReadonlyArray<V1Pod>> {
    return this.store$.pipe(listed<V1Pod>(undefined, { namespace }));
  }

  /** One pod, `undefined` while it does not exist; emits when that pod changes, not for others. */
  pod$(namespace: string, name: string): Observable<V1Pod | undefined> {
    return this.store$.pipe(
      map((store) => lister(store).byNamespace(namespace).get(name)),
      distinctUntilChanged(),
    );
  }

  constructor() {
    // One list and one watch for the app's lifetime: views come and go, the store stays current.
    this.factory.start();
    inject(DestroyRef).onDestroy(() => void this.factory.shutdown());
  }
}
