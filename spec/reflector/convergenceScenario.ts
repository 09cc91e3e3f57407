// The convergence scenario, run in its own Node process by convergence.spec.ts (see there why).
// Usage: node --import tsx spec/reflector/convergenceScenario.ts <seed> <changes> <coalescing|ordered>
// Prints one JSON line (a ConvergenceResult) on stdout.
import { isDeepStrictEqual } from 'node:util';
import type { Subscription } from 'rxjs';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { DeltaType } from '../../lib/fifo/delta.js';
import { deltaFifo } from '../../lib/fifo/deltaFifo.js';
import type { FifoMode } from '../../lib/fifo/fifoQueue.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import { metaNamespaceKeyFunc } from '../../lib/meta/keys.js';
import { reflector } from '../../lib/reflector/reflector.js';
import { storeWriter } from '../../lib/store/storeWriter.js';
import { clientNodeTransport } from '../../lib/transport/clientNode.js';
import { seededRandom, startFakeApiServer } from '../../lib/testing/index.js';

interface Pod extends KubeObject {
  spec?: { containers?: unknown[] };
}

export interface ConvergenceResult {
  readonly seed: number;
  readonly mode: FifoMode;
  readonly changes: number;
  readonly faults: Record<string, number>;
  /** Errors the reflector reported, by `statusCode ?? cause code` and action. */
  readonly errors: Record<string, number>;
  readonly lists: number;
  readonly watches: number;
  readonly serverObjects: number;
  readonly storeObjects: number;
  /** Keys on the server but not in the store, in the store but not on the server, and in both but different. */
  readonly missing: string[];
  readonly extra: string[];
  readonly different: string[];
  readonly converged: boolean;
  readonly writesMs: number;
  readonly convergeMs: number;
}

const namespaces = ['c-0', 'c-1', 'c-2', 'c-3'];
const container = { name: 'c', image: 'nginx' };
const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A seeded random mix of creates, updates and deletes with faults (dropped connections, clean and
 * abrupt; 410, 500 and 429 ERROR events; 429 on watch open; 500 on list; compactions; malformed
 * lines; stalled watches), then waits (bounded) until the store fed by reflector -> deltaFifo has
 * every server object at its RV, and compares the two exactly.
 */
export async function runConvergence(
  seed: number,
  changes: number,
  mode: FifoMode,
): Promise<ConvergenceResult> {
  const rand = seededRandom(seed).next;
  const api = await startFakeApiServer({ seed, bookmarkIntervalMs: 200, historyLimit: 5000, namespaces });
  const transport = clientNodeTransport(api.kubeConfig());
  const subs: Subscription[] = [];
  try {
    // All namespaces; the ListWatch's own dead-watch margin is long, so the reflector's detects stalls.
    const lw = listWatch<Pod>(transport, builtInResources.pods, { deadWatchMarginMs: 60_000 });
    const r = reflector<Pod>(lw, {
      backoff: { initialMs: 1, capMs: 20 },
      random: seededRandom(seed + 1).next,
      minWatchTimeoutSeconds: 1, // the server ends each watch after 1 s; a stall is detected after 1.25 s
      deadWatchGraceSeconds: 0.25,
      pageSize: 200,
      expectedTypeName: 'Pod',
    });
    const writer = storeWriter<Pod>();
    const errors: Record<string, number> = {};
    let lists = 0;
    let watches = 0;
    subs.push(
      r.errors$.subscribe((e) => {
        const what = `${e.statusCode ?? (e.cause as { kind?: string; code?: string }).kind ?? (e.cause as { code?: string }).code} ${e.action}`;
        errors[what] = (errors[what] ?? 0) + 1;
      }),
      r.status$.subscribe((s) => {
        if (s.state === 'listing') lists++;
        if (s.state === 'watching' || s.state === 'watchListing') watches++;
      }),
      r.events$
        .pipe(
          deltaFifo<Pod>({
            mode,
            knownObjects: {
              getByKey: (k) => writer.current.getByKey(k),
              listKeys: () => writer.current.listKeys(),
            },
            emitDeltaTypeReplaced: true,
          }),
        )
        .subscribe((out) => {
          if (out.type !== 'pop') return;
          writer.batch((m) => {
            for (const d of out.deltas) {
              if (d.type === DeltaType.Deleted) m.delete(d.object);
              else m.upsert(d.object as Pod);
            }
          });
        }),
    );

    // The faults, by name; `random` gives each a share of the bursts (cumulative thresholds of one
    // draw, so at most one per burst).
    const actions = {
      dropWatches: () => api.faults.dropWatches(),
      dropWatchesAbrupt: () => api.faults.dropWatches({ abrupt: true }),
      watchError410: () => api.faults.sendWatchError({ code: 410 }),
      watchError500: () => api.faults.sendWatchError({ code: 500 }),
      watchError429: () => api.faults.sendWatchError({ code: 429, reason: 'TooManyRequests' }),
      watchOpen429: () => api.faults.failNext(1, { code: 429, verb: 'watch', resource: 'pods' }),
      list500: () => api.faults.failNext(1, { code: 500, verb: 'list', resource: 'pods' }),
      compact: () => api.faults.compact(),
      malformedLine: () => api.faults.malformedLine(),
      stall: () => api.faults.stallWatches(),
    } satisfies Record<string, () => void>;
    type FaultName = keyof typeof actions;
    const random: Array<[number, FaultName]> = [
      [0.02, 'dropWatches'],
      [0.03, 'dropWatchesAbrupt'],
      [0.04, 'watchError410'],
      [0.05, 'watchError500'],
      [0.055, 'watchError429'],
      [0.06, 'watchOpen429'],
      [0.065, 'list500'],
      [0.075, 'compact'],
      [0.08, 'malformedLine'],
    ];
    // Each fault the spec asserts on happens at least once, whatever the timing: random faults are
    // skipped during the quiet after a stall, which is timed, so their count varies from run to run.
    // These come before the first stall, each on an open watch.
    const planned: Array<[number, FaultName]> = [
      [1000, 'dropWatches'],
      [1500, 'watchError410'],
      [2000, 'watchError500'],
      [2500, 'watchError429'],
      [3000, 'compact'],
    ];
    const faults: Record<string, number> = {};
    const fault = (name: FaultName) => {
      faults[name] = (faults[name] ?? 0) + 1;
      actions[name]();
    };
    const openWatch = async () => {
      for (let i = 0; i < 1000 && api.openWatches('pods') === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const live = new Map<string, number>();
    let done = 0;
    let stalls = 0;
    let quietUntil = 0;
    const t0 = Date.now();
    while (done < changes) {
      const burst = 1 + Math.floor(rand() * 60);
      for (let i = 0; i < burst && done < changes; i++, done++) {
        const namespace = namespaces[Math.floor(rand() * namespaces.length)];
        const name = `p${Math.floor(rand() * 400)}`;
        const key = `${namespace}/${name}`;
        const v = live.get(key);
        if (v === undefined) {
          api.create('pods', { metadata: { name, namespace, labels: { v: '0' } }, spec: { containers: [container] } });
          live.set(key, 0);
        } else if (rand() < 0.7) {
          // a label: kube keeps a Pod's spec immutable
          api.patch('pods', namespace, name, { metadata: { labels: { v: String(v + 1) } } }, 'merge');
          live.set(key, v + 1);
        } else {
          api.delete('pods', namespace, name);
          live.delete(key);
        }
      }
      while (planned.length > 0 && done >= planned[0][0]) {
        const [, name] = planned.shift() as [number, FaultName];
        await openWatch();
        fault(name);
      }
      // After a stall, no other fault for a while: the reflector itself must notice the dead watch.
      const f = Date.now() < quietUntil ? 1 : rand();
      const drawn = random.find(([below]) => f < below);
      if (drawn !== undefined) fault(drawn[1]);
      // Every 5000 changes, stall the open watches (no bytes, not even the end at the timeout).
      if (Math.floor(done / 5000) > stalls && done < changes) {
        stalls++;
        await openWatch(); // stall a watch, not a reflector between requests
        quietUntil = Date.now() + 2_000;
        fault('stall');
      }
      // paced while quiet, so that changes keep coming while the stalled watch is found dead
      await (Date.now() < quietUntil ? new Promise((resolve) => setTimeout(resolve, 20)) : turn());
    }
    api.faults.reset();
    const writesMs = Date.now() - t0;

    const server = () => new Map(api.list<Pod>('pods').items.map((o) => [metaNamespaceKeyFunc(o), o as Pod]));
    const atServerRvs = () => {
      const s = server();
      const c = writer.current;
      if (s.size !== c.size) return false;
      for (const [k, o] of s)
        if (c.getByKey(k)?.metadata?.resourceVersion !== o.metadata?.resourceVersion) return false;
      return true;
    };
    const deadline = Date.now() + 20_000;
    while (!atServerRvs() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    const convergeMs = Date.now() - t0 - writesMs;

    const s = server();
    const store = new Map(writer.current.list().map((o) => [metaNamespaceKeyFunc(o), o]));
    const missing = [...s.keys()].filter((k) => !store.has(k));
    const extra = [...store.keys()].filter((k) => !s.has(k));
    const different = [...s.keys()].filter(
      (k) => store.has(k) && !isDeepStrictEqual(plain(store.get(k)), plain(s.get(k))),
    );
    const liveMismatch = [...live.keys()].filter((k) => !s.has(k)).length + (s.size - live.size);
    return {
      seed,
      mode,
      changes: done,
      faults,
      errors,
      lists,
      watches,
      serverObjects: s.size,
      storeObjects: store.size,
      missing,
      extra,
      different,
      converged: missing.length === 0 && extra.length === 0 && different.length === 0 && liveMismatch === 0,
      writesMs,
      convergeMs,
    };
  } finally {
    subs.forEach((sub) => sub.unsubscribe());
    transport.destroy();
    await api.close();
  }
}

/** A JSON round trip: frozen store objects and the server's copies compare as plain data. */
const plain = (o: unknown): unknown => JSON.parse(JSON.stringify(o));

if (process.argv[1] && /convergenceScenario\.ts$/.test(process.argv[1])) {
  const [seed, changes, mode] = process.argv.slice(2);
  runConvergence(Number(seed), Number(changes), (mode as FifoMode) ?? 'coalescing').then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
