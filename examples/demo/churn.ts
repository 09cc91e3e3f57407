// Changes the fake API server's pods at a steady rate: phase transitions, annotation updates,
// creations and deletions, chosen by a seeded random generator so that runs are repeatable.
import { interval, type SchedulerLike, type Subscription } from 'rxjs';
import { realisticPod, seededRandom, type FakeApiServer } from 'rxkube/testing';

/** What the churn did so far. */
export interface ChurnCounts {
  created: number;
  updated: number;
  deleted: number;
  failed: number;
}

/**
 * What the churn wrote, so the demo can tell its own changes from anyone else's (kubectl): the
 * resource versions of its creations and updates, and the keys it deleted. The demo's handler takes
 * each entry out when its event arrives, so the ledger stays as small as the changes in flight.
 */
export interface ChurnLedger {
  readonly versions: Set<string>;
  readonly deleted: Set<string>;
}

/** An empty {@link ChurnLedger}. */
export const churnLedger = (): ChurnLedger => ({ versions: new Set(), deleted: new Set() });

const PHASES = ['Pending', 'Running', 'Succeeded', 'Failed'] as const;

/** The demo's namespaces on the fake server. */
export const demoNamespaces = ['shop', 'blog', 'search', 'payments', 'auth', 'batch'] as const;

/** Seeds `count` realistic pods over the demo namespaces (or one namespace), in several phases. */
export function seedPods(
  api: FakeApiServer,
  count: number,
  namespace: string | undefined,
): Array<[string, string]> {
  const live: Array<[string, string]> = [];
  for (let i = 0; i < count; i++) {
    const ns = namespace ?? demoNamespaces[i % demoNamespaces.length];
    const pod = realisticPod(i, ns);
    // Most pods run; a few are still starting or have finished.
    const phase = i % 10 === 0 ? 'Pending' : i % 17 === 0 ? 'Succeeded' : 'Running';
    api.create('pods', { ...pod, status: { ...pod.status, phase } }, { withStatus: true }); // as the kubelet reported it
    live.push([ns, pod.metadata.name]);
  }
  return live;
}

/**
 * Starts the churn: every `tickMs`, `rate * tickMs / 1000` changes. Stops when unsubscribed.
 * The counts object is updated in place.
 */
export function startChurn(
  api: FakeApiServer,
  live: Array<[string, string]>,
  options: {
    rate: number;
    seed: number;
    namespace: string | undefined;
    firstIndex: number;
    scheduler: SchedulerLike;
  },
  counts: ChurnCounts,
  ledger: ChurnLedger = churnLedger(),
): Subscription {
  const wrote = (obj: { metadata?: { resourceVersion?: string } }) => {
    const rv = obj.metadata?.resourceVersion;
    if (rv) ledger.versions.add(rv);
  };
  const rnd = seededRandom(options.seed).next;
  const tickMs = 50;
  let budget = 0;
  let next = options.firstIndex;
  const pick = () => Math.floor(rnd() * live.length);
  return interval(tickMs, options.scheduler).subscribe(() => {
    budget += (options.rate * tickMs) / 1000;
    for (; budget >= 1; budget--) {
      const r = rnd();
      try {
        if (r < 0.15 || live.length === 0) {
          const ns = options.namespace ?? demoNamespaces[Math.floor(rnd() * demoNamespaces.length)];
          const pod = realisticPod(next++, ns);
          wrote(api.create('pods', { ...pod, status: { ...pod.status, phase: 'Pending' } }, { withStatus: true }));
          live.push([ns, pod.metadata.name]);
          counts.created++;
        } else if (r < 0.28) {
          const i = pick();
          const [ns, name] = live[i];
          live[i] = live[live.length - 1];
          live.pop();
          ledger.deleted.add(`${ns}/${name}`);
          api.delete('pods', ns, name);
          counts.deleted++;
        } else if (r < 0.65) {
          const [ns, name] = live[pick()];
          const phase = PHASES[Math.floor(rnd() * PHASES.length)];
          wrote(api.patch('pods', ns, name, { status: { phase } }, 'merge', 'status')); // the kubelet writes status through /status
          counts.updated++;
        } else {
          const [ns, name] = live[pick()];
          wrote(
            api.patch(
              'pods',
              ns,
              name,
              { metadata: { annotations: { 'demo/heartbeat': String(Math.floor(rnd() * 1e9)) } } },
              'merge',
            ),
          );
          counts.updated++;
        }
      } catch {
        // A patch that changes nothing, or a race with a deletion: count it and go on.
        counts.failed++;
      }
    }
  });
}
