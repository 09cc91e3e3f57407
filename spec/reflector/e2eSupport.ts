import type { Subscription } from 'rxjs';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { listWatch, type ListWatchOptions } from '../../lib/listwatch/createListWatch.js';
import type { ListWatch } from '../../lib/listwatch/listWatch.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import { metaNamespaceKeyFunc } from '../../lib/meta/keys.js';
import { reflector, type Reflector, type ReflectorOptions } from '../../lib/reflector/reflector.js';
import type { ReflectorError } from '../../lib/reflector/reflectorError.js';
import type { ReflectorEvent } from '../../lib/reflector/reflectorEvent.js';
import type { ReflectorStatus } from '../../lib/reflector/reflectorStatus.js';
import type { FakeApiServer } from '../../lib/testing/index.js';
import { clientNodeTransport } from '../../lib/transport/clientNode.js';
import { waitFor as waitForIt } from '../support/waitFor.js';

export interface Pod extends KubeObject {
  spec?: { containers?: unknown[] };
}

/** Small, real-time-friendly backoff for loopback tests: 5 ms, x2, cap 50 ms, no jitter. */
export const fastBackoff = { initialMs: 5, capMs: 50, jitter: 0 };

/** A running reflector over a real ListWatch on the fake server, and what it emitted. */
export interface Running {
  readonly r: Reflector<Pod>;
  readonly lw: ListWatch<Pod>;
  readonly events: ReflectorEvent<Pod>[];
  readonly statuses: ReflectorStatus[];
  readonly errors: ReflectorError[];
  readonly resourceVersions: string[];
  /** The objects the events describe, by key (replace / add / update / delete applied in order). */
  readonly view: Map<string, Pod>;
  stop(): void;
}

export function runReflector(
  api: FakeApiServer,
  options: ReflectorOptions = {},
  lwOptions: ListWatchOptions = {},
  namespace = 'default',
): Running {
  const transport = clientNodeTransport(api.kubeConfig());
  const lw = listWatch<Pod>(transport, builtInResources.pods, { namespace, ...lwOptions });
  const r = reflector<Pod>(lw, {
    backoff: fastBackoff,
    random: () => 0,
    expectedTypeName: 'Pod',
    ...options,
  });
  const events: ReflectorEvent<Pod>[] = [];
  const statuses: ReflectorStatus[] = [];
  const errors: ReflectorError[] = [];
  const resourceVersions: string[] = [];
  const view = new Map<string, Pod>();
  const subs: Subscription[] = [
    r.status$.subscribe((s) => statuses.push(s)),
    r.errors$.subscribe((e) => errors.push(e)),
    r.resourceVersion$.subscribe((rv) => resourceVersions.push(rv)),
  ];
  const events$ = r.events$.subscribe((e) => {
    events.push(e);
    if (e.type === 'replace') {
      view.clear();
      for (const o of e.items) view.set(metaNamespaceKeyFunc(o), o);
    } else if (e.type === 'add' || e.type === 'update') view.set(metaNamespaceKeyFunc(e.object), e.object);
    else if (e.type === 'delete') view.delete(metaNamespaceKeyFunc(e.object));
  });
  return {
    r,
    lw,
    events,
    statuses,
    errors,
    resourceVersions,
    view,
    stop: () => {
      events$.unsubscribe();
      subs.forEach((s) => s.unsubscribe());
      transport.destroy();
    },
  };
}

/** Resolves when `predicate` holds, checking every 5 ms; rejects after `timeoutMs` (a bound, not a timing assertion). */
export function waitFor(
  predicate: () => boolean,
  what: string,
  timeoutMs = 10_000,
  explain: () => string = () => '',
): Promise<void> {
  return waitForIt(predicate, () => `${what} ${explain()}`, timeoutMs);
}

/**
 * A valid Pod whose version `v` is a label: kube keeps a Pod's spec (but images and a few fields)
 * immutable, so a label is what an update may change.
 */
export const newPod = (name: string, v = 0, namespace = 'default'): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels: { v: String(v) } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

/** `stored` at version `v`: the body of an update that changes it (its label). */
export const podAtVersion = (stored: Pod, v: number): Pod => ({
  ...stored,
  metadata: { ...stored.metadata, labels: { ...stored.metadata?.labels, v: String(v) } },
});

/** The server's pods of a namespace, by key, as plain comparable values. */
export function serverView(api: FakeApiServer, namespace = 'default'): Map<string, Pod> {
  const list = api.list<Pod>('pods', namespace);
  return new Map(list.items.map((o) => [metaNamespaceKeyFunc(o), o]));
}

export const rvs = (view: Map<string, Pod>): Record<string, string | undefined> =>
  Object.fromEntries([...view].map(([k, o]) => [k, o.metadata?.resourceVersion]).sort());
