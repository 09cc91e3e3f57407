// rxkube high availability, live: `npx tsx --tsconfig tsconfig.spec.json examples/ha/main.ts [--replicas 3] [--duration 20]`.
// Starts the embedded fake API server and N replicas, each a leader elector on one Lease (short
// timings: leaseDuration 2 s, renewDeadline 1.2 s, retryPeriod 0.3 s). Every few seconds the
// leader crashes (stops without releasing); the others take over once the Lease has expired by
// their own clock, and the crashed replica comes back as a standby. It prints who leads, each
// failover's duration, and a summary.
//
// It imports 'rxkube' and 'rxkube/testing' as an app does (here they resolve to the sources).
import { pathToFileURL } from 'node:url';
import { clientNodeTransport, leaderElection, leaseLock, type ClientNodeTransport, type LeaderElector } from 'rxkube';
import { DEFAULT_TOKEN, startFakeApiServer } from 'rxkube/testing';

/** What the run saw. */
export interface HaSummary {
  readonly failovers: number;
  /** Per crash: ms from the crash until another replica led. */
  readonly takeoverMs: ReadonlyArray<number>;
  /** The most replicas that ever considered themselves leader at the same moment (must be 1). */
  readonly maxLeadersAtOnce: number;
}

const timings = { leaseDuration: 2_000, renewDeadline: 1_200, retryPeriod: 300 };

interface Replica {
  readonly id: string;
  elector: LeaderElector;
  transport: ClientNodeTransport;
}

/** Runs the failover demo for `durationMs`, writing a line per event to `out`. */
export async function runHaDemo(options: { replicas?: number; durationMs?: number; out?: { write(s: string): unknown } } = {}): Promise<HaSummary> {
  const n = options.replicas ?? 3;
  const out = options.out ?? process.stdout;
  const ids = Array.from({ length: n }, (_, i) => `replica-${i}`);
  const api = await startFakeApiServer({ tokens: [{ token: DEFAULT_TOKEN, user: 'admin' }, ...ids.map((id) => ({ token: `t-${id}`, user: id }))] });
  const t0 = performance.now();
  const stamp = () => `${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s`;
  const leading = new Set<string>();
  let maxLeadersAtOnce = 0;
  let crashedAt: number | undefined;
  const takeoverMs: number[] = [];

  const spawn = (id: string): Replica => {
    const transport = clientNodeTransport(api.kubeConfig({ token: `t-${id}` }));
    const elector = leaderElection({
      lock: leaseLock(transport, 'default', 'ha-demo'),
      identity: id,
      ...timings,
      onStartedLeading: () => {
        leading.add(id);
        maxLeadersAtOnce = Math.max(maxLeadersAtOnce, leading.size);
        const took = crashedAt === undefined ? '' : ` (${(performance.now() - crashedAt).toFixed(0)} ms after the crash)`;
        if (crashedAt !== undefined) takeoverMs.push(performance.now() - crashedAt);
        crashedAt = undefined;
        out.write(`${stamp()}  ${id} started leading${took}\n`);
      },
      onStoppedLeading: () => {
        leading.delete(id);
        out.write(`${stamp()}  ${id} stopped leading\n`);
      },
    });
    elector.start();
    return { id, elector, transport };
  };

  const replicas = ids.map((id) => spawn(id));
  out.write(`${stamp()}  ${n} replicas electing on Lease default/ha-demo (leaseDuration ${timings.leaseDuration} ms, renewDeadline ${timings.renewDeadline} ms, retryPeriod ${timings.retryPeriod} ms)\n`);
  const until = t0 + (options.durationMs ?? 20_000);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  try {
    while (performance.now() + 4_500 < until) {
      await sleep(1_500);
      const leader = replicas.find((r) => r.elector.isLeader());
      if (!leader) continue;
      out.write(`${stamp()}  crash: ${leader.id} stops without releasing the Lease\n`);
      crashedAt = performance.now();
      await leader.elector.stop();
      leader.transport.destroy();
      for (let i = 0; i < 100 && crashedAt !== undefined; i++) await sleep(50); // bounded wait for a new leader
      Object.assign(leader, spawn(leader.id)); // back as a standby
    }
  } finally {
    for (const r of replicas) {
      await r.elector.stop();
      r.transport.destroy();
    }
    const lease = api.get<{ spec: { leaseTransitions?: number } }>('leases.coordination.k8s.io', 'default', 'ha-demo');
    out.write(`${stamp()}  done: ${takeoverMs.length} failovers (${takeoverMs.map((t) => t.toFixed(0)).join(', ')} ms), leaseTransitions ${lease?.spec.leaseTransitions ?? 0}, at most ${maxLeadersAtOnce} leader at once\n`);
    await api.close();
  }
  return { failovers: takeoverMs.length, takeoverMs, maxLeadersAtOnce };
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} takes a positive number`);
  return v;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runHaDemo({ replicas: arg('replicas', 3), durationMs: arg('duration', 20) * 1000 }).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  });
}
