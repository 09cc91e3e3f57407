import { firstValueFrom, take, toArray, type Observable } from 'rxjs';
import type { Resource } from '../../lib/listwatch/resource.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import type { FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';

// Shared by the listWatch*.spec.ts files (not a spec file itself).

export interface Obj {
  kind?: string;
  metadata: { name: string; namespace?: string; resourceVersion?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
}

const resource = (
  group: string,
  version: string,
  plural: string,
  kind: string,
  namespaced = true,
): Resource => ({
  group,
  version,
  plural,
  kind,
  namespaced,
});
export const pods = resource('', 'v1', 'pods', 'Pod');
export const secrets = resource('', 'v1', 'secrets', 'Secret');
export const configmaps = resource('', 'v1', 'configmaps', 'ConfigMap');
export const nodes = resource('', 'v1', 'nodes', 'Node', false);
export const deployments = resource('apps', 'v1', 'deployments', 'Deployment');
export const widgets = resource('example.com', 'v1alpha1', 'widgets', 'Widget');

export const all = <T>(o$: Observable<T>): Promise<T[]> => firstValueFrom(o$.pipe(toArray()));
export const names = (items: ReadonlyArray<Obj>): string[] =>
  items.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`).sort();
export const eventSummary = (e: WatchEvent<Obj>): string =>
  e.type === 'MALFORMED'
    ? 'MALFORMED'
    : e.type === 'ERROR'
      ? `ERROR ${e.object.code}`
      : `${e.type} ${e.object.metadata.name}`;

/** Resolves when `check` holds, polling every 10 ms; rejects after 5 s (the shared `waitFor`). */
export function eventually(check: () => boolean, what: string): Promise<void> {
  return waitFor(check, what, 5_000, 10);
}

/** Subscribes to a watch and resolves with its first `n` events; creates objects once it is open. */
export function watchEvents(
  api: FakeApiServer,
  events$: Observable<WatchEvent<Obj>>,
  n: number,
): { events: Promise<WatchEvent<Obj>[]>; open: Promise<void> } {
  const before = api.openWatches();
  const events = firstValueFrom(events$.pipe(take(n), toArray()));
  return { events, open: api.waitForWatches(before + 1) };
}

export const cm = (namespace: string, name: string, labels: Record<string, string> = {}): Obj => ({
  metadata: { namespace, name, labels },
  data: { k: name },
});
