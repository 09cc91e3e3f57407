import { InjectionToken } from '@angular/core';

/** Where the app reaches the Kubernetes API, and how long a watch may stay silent. */
export interface KubeApiConfig {
  /** The proxy's path on the app's origin (dev server: proxy.conf.json; production: kubectl proxy, an ingress). */
  readonly baseUrl: string;
  /**
   * The API server's bookmark interval (ms): a watch silent for longer (plus a margin) is dead and is
   * replaced, so a proxy that drops the upstream connection silently does not leave the page stale.
   */
  readonly expectedBookmarkIntervalMs: number;
}

export const KUBE_API = new InjectionToken<KubeApiConfig>('KUBE_API', {
  providedIn: 'root',
  factory: () => ({ baseUrl: '/k8s', expectedBookmarkIntervalMs: 60_000 }),
});

/**
 * The defaults, with `?bookmarkIntervalMs=N` from the page's URL applied: the end-to-end test runs
 * the fake API server with a short bookmark interval and tells the page so.
 */
export function kubeApiFromLocation(search: string): KubeApiConfig {
  const n = Number(new URLSearchParams(search).get('bookmarkIntervalMs'));
  return { baseUrl: '/k8s', expectedBookmarkIntervalMs: Number.isInteger(n) && n > 0 ? n : 60_000 };
}
