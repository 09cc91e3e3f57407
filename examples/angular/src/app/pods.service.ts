// The app's one informer: every pod of the cluster, kept by rxkube, exposed as Observables that
// components turn into signals (toSignal) for as long as they are on screen.
import { DestroyRef, Injectable, InjectionToken, inject } from '@angular/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { auditTime, distinctUntilChanged, map, type Observable } from 'rxjs';
import { fetchTransport, lister, listed, sharedInformerFactory, type Informer, type Store } from 'rxkube';

/** Where the app reaches the Kubernetes API, and how long a watch may stay silent. */
export interface KubeApiConfig {
  /** The proxy's path on the app's origin (dev server: proxy.conf.json; production: kubectl proxy, an ingress). */
  readonly baseUrl: string;
  /**
   * The API server's bookmark interval (ms): a watch silent for longer (plus the grace) is dead and
   * is replaced, so a proxy that loses its upstream connection silently does not leave the page stale.
   */
  readonly expectedBookmarkIntervalMs: number;
  /** How much longer than that a watch may stay silent (s). */
  readonly deadWatchGraceSeconds: number;
}

/**
 * The defaults (kube-apiserver's: a bookmark a minute; 10 s grace), with `?bookmarkIntervalMs=N` and
 * `?graceSeconds=N` from the page's URL applied: the end-to-end test runs the fake API server with a
 * short bookmark interval and tells the page so.
 */
export function kubeApiFromLocation(search: string): KubeApiConfig {
  const query = new URLSearchParams(search);
  const positive = (name: string, fallback: number): number => {
    const n = Number(query.get(name));
    return Number.isInteger(n) && n > 0 ? n : fallback;
  };
  return {
    baseUrl: '/k8s',
    expectedBookmarkIntervalMs: positive('bookmarkIntervalMs', 60_000),
    deadWatchGraceSeconds: positive('graceSeconds', 10),
  };
}

export const KUBE_API = new InjectionToken<KubeApiConfig>('KUBE_API', {
  providedIn: 'root',
  factory: () => kubeApiFromLocation(''),
});

const sameStrings = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean =>
  a.length === b.length && a.every((s, i) => s === b[i]);

@Injectable({ providedIn: 'root' })
export class PodsService {
  private readonly api = inject(KUBE_API);
  private readonly factory = sharedInformerFactory(fetchTransport({ baseUrl: this.api.baseUrl }), {
    informerOptions: {
      reflector: {
        expectedBookmarkIntervalMs: this.api.expectedBookmarkIntervalMs,
        deadWatchGraceSeconds: this.api.deadWatchGraceSeconds,
      },
    },
  });
  private readonly pods: Informer<Pod> = this.factory.pods();

  /** Every store snapshot: the current one first (replayed to each subscriber), then one per change. */
  readonly store$: Observable<Store<Pod>> = this.pods.store$;

  /** Whether the first list is in: the current value to every subscriber (`true` at once later). */
  readonly synced$: Observable<boolean> = this.pods.synced$;

  /** The snapshots from the first full one on: never the empty store from before the first list. */
  readonly syncedStore$: Observable<Store<Pod>> = this.pods.syncedStore$;

  /** The namespaces that have pods, sorted; recomputed at most 4 times a second. */
  readonly namespaces$: Observable<ReadonlyArray<string>> = this.store$.pipe(
    auditTime(250),
    map((store) => store.listIndexFuncValues('namespace').sort()),
    distinctUntilChanged(sameStrings),
  );

  /** The pods of one namespace; a new array only when one of them changes. */
  podsIn$(namespace: string): Observable<ReadonlyArray<Pod>> {
    return this.store$.pipe(listed<Pod>(undefined, { namespace }));
  }

  /** One pod, `undefined` while it does not exist; emits when that pod changes, not for others. */
  pod$(namespace: string, name: string): Observable<Pod | undefined> {
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
