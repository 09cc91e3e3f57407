// rxkube demo (`npm start`): an informer with two handlers and a lister, watching pods live.
// By default it starts the embedded fake API server on 127.0.0.1 with a few thousand pods and a
// churn of changes; with --kubeconfig FILE (or KUBECONFIG) it watches a real cluster, read-only.
// It ends by itself after --duration seconds with a summary.
//
// It imports 'rxkube' and 'rxkube/testing' as an app does (in this repository they resolve to the
// sources: tsconfig.spec.json's paths for tsx, jest.config.mjs's moduleNameMapper for the tests).
import { KubeConfig } from '@kubernetes/client-node';
import type { Pod as V1Pod } from 'kubernetes-types/core/v1.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  asyncScheduler,
  filter,
  firstValueFrom,
  interval,
  map,
  of,
  race,
  switchMap,
  take,
  timeout,
  timer,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import {
  DeletedFinalStateUnknown,
  NamespaceIndex,
  sharedInformerFactory,
  stripManagedFields,
  type HandlerRegistration,
  type Informer,
  type Store,
} from 'rxkube';
import { startFakeApiServer, type FakeApiServer } from 'rxkube/testing';
import { defaultDemoOptions, parseDemoArgs, usage, type DemoOptions } from './args.js';
import { churnLedger, demoNamespaces, seedPods, startChurn, type ChurnCounts } from './churn.js';
import { frameWriter, type Frame } from './view.js';

/** What the demo saw, printed at the end and returned by {@link runDemo}. */
export interface DemoSummary {
  readonly source: 'fake' | 'cluster';
  readonly ranMs: number;
  /** What the churn did (fake server only). */
  readonly churn: ChurnCounts | undefined;
  /** The notifications the counting handler got. */
  readonly events: { readonly add: number; readonly update: number; readonly delete: number };
  readonly handlers: ReadonlyArray<{
    readonly name: string;
    readonly handled: number;
    readonly maxQueued: number;
    readonly maxLagMs: number;
  }>;
  readonly objects: number;
  readonly namespaces: number;
  readonly byPhase: Readonly<Record<string, number>>;
  /** Fake server only: whether the store ended equal to the server (same keys, same resource versions). */
  readonly converged: boolean | undefined;
  readonly errors: number;
}

/** Where the demo writes, and its clock. */
export interface DemoIo {
  readonly out: { write(s: string): unknown; isTTY?: boolean };
  readonly scheduler: SchedulerLike;
}

const PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'];
const phaseOf = (pod: V1Pod) => pod.status?.phase ?? 'Unknown';

/** Runs the demo to its end and returns the summary (also printed). */
export async function runDemo(
  options: Partial<DemoOptions> = {},
  io: DemoIo = { out: process.stdout, scheduler: asyncScheduler },
): Promise<DemoSummary> {
  const o: DemoOptions = { ...defaultDemoOptions, ...options };
  const { out, scheduler } = io;

  let api: FakeApiServer | undefined;
  let kubeConfig: KubeConfig;
  let title: string;
  let live: Array<[string, string]> = [];
  let kubeconfigDir: string | undefined;
  if (o.kubeconfig) {
    kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(o.kubeconfig);
    title = `rxkube demo · ${kubeConfig.getCurrentCluster()?.server ?? 'cluster'} (read-only)`;
  } else {
    out.write(`starting the fake API server on 127.0.0.1 and seeding ${o.pods} pods…\n`);
    api = await startFakeApiServer({ seed: o.seed, namespaces: o.namespace ? [o.namespace] : demoNamespaces });
    live = seedPods(api, o.pods, o.namespace);
    kubeConfig = api.kubeConfig();
    title = `rxkube demo · fake API server · ${o.pods} pods · ${o.rate} changes/s`;
    // A kubeconfig for the fake server, so a user can change things with kubectl and see them arrive.
    kubeconfigDir = await mkdtemp(join(tmpdir(), 'rxkube-demo-'));
    const file = join(kubeconfigDir, 'kubeconfig');
    await api.writeKubeConfig(file);
    const [ns, name] = live[0] ?? ['default', 'my-pod'];
    out.write(
      `while it runs, try: kubectl --kubeconfig ${file} -n ${ns} annotate pod ${name} hello=world` +
        ` (changes made by others are shown as such)\n`,
    );
  }

  // One factory, one pod informer; objects lose their managedFields before they are stored.
  const factory = sharedInformerFactory(kubeConfig, {
    namespace: o.namespace,
    transform: stripManagedFields,
    scheduler,
  });
  const pods: Informer<V1Pod> = factory.pods();

  // Changes the demo did not make (kubectl, another client), fake server only: the churn's ledger
  // says which changes are its own.
  const ledger = churnLedger();
  const outside = { lines: [] as string[], fresh: 0, namespaces: new Set<string>() };
  const noteOutside = (verb: string, pod: V1Pod, own: boolean) => {
    if (!api || own) return;
    const ns = pod.metadata?.namespace ?? '';
    outside.namespaces.add(ns);
    const at = ((scheduler.now() - started) / 1000).toFixed(1);
    outside.lines.push(`${at}s ${verb} ${ns}/${pod.metadata?.name} (${phaseOf(pod)})`);
    if (outside.lines.length > 5) outside.lines.shift();
    outside.fresh++;
  };
  const ownVersion = (pod: V1Pod) => ledger.versions.delete(pod.metadata?.resourceVersion ?? '');

  // Handler 1, "counter": fast, counts what it is told.
  const events = { add: 0, update: 0, delete: 0 };
  let perSecond = 0;
  const counter = pods.addEventHandler(
    {
      add: (pod, isInInitialList) => {
        events.add++;
        perSecond++;
        if (!isInInitialList) noteOutside('added', pod, ownVersion(pod));
      },
      update: (_old, pod) => {
        events.update++;
        perSecond++;
        noteOutside('updated', pod, ownVersion(pod));
      },
      delete: (deleted) => {
        events.delete++;
        perSecond++;
        // A delete the watch missed arrives wrapped, with the last state the informer knew.
        const pod = deleted instanceof DeletedFinalStateUnknown ? deleted.obj : deleted;
        const key = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
        noteOutside('deleted', pod, ledger.deleted.delete(key));
      },
    },
    { name: 'counter' },
  );

  // Handler 2, "auditor": slow on purpose (1 ms of I/O per change after the initial list), to
  // show that a slow handler lags on its own without slowing the counter or the store.
  let audited = 0;
  const failedPods = new Set<string>();
  const auditor = pods.addEventHandler(
    {
      add: (_pod, isInInitialList) => {
        audited++;
        return isInInitialList ? undefined : timer(1, scheduler);
      },
      update: (oldPod, pod) => {
        audited++;
        const key = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
        if (phaseOf(pod) === 'Failed' && phaseOf(oldPod) !== 'Failed') failedPods.add(key);
        return timer(1, scheduler);
      },
      delete: () => {
        audited++;
        return timer(1, scheduler);
      },
    },
    { name: 'auditor' },
  );

  let errors = 0;
  const errorSub = pods.errors$.subscribe(() => errors++);

  const handlers: Array<{
    name: string;
    reg: HandlerRegistration;
    handled: () => number;
    maxQueued: number;
    maxLagMs: number;
  }> = [
    {
      name: 'counter',
      reg: counter,
      handled: () => events.add + events.update + events.delete,
      maxQueued: 0,
      maxLagMs: 0,
    },
    { name: 'auditor', reg: auditor, handled: () => audited, maxQueued: 0, maxLagMs: 0 },
  ];

  // Peak lag per handler, from every change of its lag (frames only sample it once a second).
  const lagSubs = handlers.map((h) =>
    h.reg.lag$.subscribe((l) => {
      h.maxQueued = Math.max(h.maxQueued, l.queued);
      h.maxLagMs = Math.max(h.maxLagMs, l.oldestAgeMs);
    }),
  );

  const started = scheduler.now();
  factory.start();

  // The churn starts once the first list is in, so that the initial listing is clean.
  const churn: ChurnCounts = { created: 0, updated: 0, deleted: 0, failed: 0 };
  let churnSub: Subscription | undefined;
  let syncedAt: number | undefined; // the run ends durationMs after this (below)
  const syncSub = pods.synced$.pipe(filter(Boolean)).subscribe(() => {
    syncedAt ??= scheduler.now();
    if (api) {
      churnSub = startChurn(
        api,
        live,
        { rate: o.rate, seed: o.seed, namespace: o.namespace, firstIndex: o.pods, scheduler },
        churn,
        ledger,
      );
    }
  });

  // The live view, once per refresh.
  const write = frameWriter(out);
  let lastTick = scheduler.now();
  let lastChanges = 0;
  const frame = (): Frame => {
    const now = scheduler.now();
    const seconds = Math.max((now - lastTick) / 1000, 0.001);
    const changes = churn.created + churn.updated + churn.deleted;
    const f: Frame = {
      title,
      elapsedMs: now - started,
      durationMs: syncedAt === undefined ? o.durationMs : syncedAt - started + o.durationMs,
      eventsPerSecond: perSecond / seconds,
      changesPerSecond: api ? (changes - lastChanges) / seconds : undefined,
      objects: pods.getStore().size,
      resourceVersion: pods.lastSyncResourceVersion(),
      synced: pods.hasSynced(),
      ...namespaceTable(pods, outside.namespaces),
      handlers: handlers.map((h) => {
        const lag = h.reg.lag();
        h.maxQueued = Math.max(h.maxQueued, lag.queued);
        h.maxLagMs = Math.max(h.maxLagMs, lag.oldestAgeMs);
        return { name: h.name, handled: h.handled(), queued: lag.queued, lagMs: lag.oldestAgeMs };
      }),
      listerLines: listerLines(pods, o.kubeconfig === undefined, failedPods.size),
      outsideChanges: [...outside.lines],
      newOutsideChanges: outside.fresh,
      errors,
    };
    perSecond = 0;
    outside.fresh = 0;
    lastTick = now;
    lastChanges = changes;
    return f;
  };
  // The run lasts durationMs from the first list (when the churn starts: on a slow machine or a big
  // cluster the list alone may take longer), or ends durationMs after the start if no list comes.
  const listed = pods.synced$.pipe(filter(Boolean), take(1), timeout({ first: o.durationMs, with: () => of(false), scheduler }));
  await new Promise<void>((resolve) => {
    const tick = interval(o.refreshMs, scheduler).subscribe(() => write(frame()));
    listed.pipe(switchMap((synced) => (synced ? timer(o.durationMs, scheduler) : of(0)))).subscribe(() => {
      tick.unsubscribe();
      resolve();
    });
  });

  // Wind down: stop changing things, wait for the store to equal the server, let the handlers drain.
  churnSub?.unsubscribe();
  syncSub.unsubscribe();
  const settle = 5_000;
  let converged: boolean | undefined;
  if (api) {
    const server = new Map(
      api
        .list<V1Pod>('pods', o.namespace)
        .items.map((p) => [`${p.metadata?.namespace}/${p.metadata?.name}`, p.metadata?.resourceVersion]),
    );
    const equal = (s: Store<V1Pod>) =>
      s.size === server.size &&
      s
        .list()
        .every(
          (p) => server.get(`${p.metadata?.namespace}/${p.metadata?.name}`) === p.metadata?.resourceVersion,
        );
    converged = await firstValueFrom(
      race(
        pods.store$.pipe(
          filter(equal),
          map(() => true),
        ),
        timer(settle, scheduler).pipe(map(() => false)),
      ),
    );
  }
  // Then let the handlers finish what they were told (the store has every change by now).
  for (const h of handlers) {
    await firstValueFrom(race(h.reg.lag$.pipe(filter((l) => l.queued === 0)), timer(settle, scheduler)), {
      defaultValue: undefined,
    });
  }
  write(frame());

  const byPhase: Record<string, number> = {};
  for (const p of pods.lister().list()) byPhase[phaseOf(p)] = (byPhase[phaseOf(p)] ?? 0) + 1;
  const summary: DemoSummary = {
    source: api ? 'fake' : 'cluster',
    ranMs: scheduler.now() - started,
    churn: api ? { ...churn } : undefined,
    events: { ...events },
    handlers: handlers.map((h) => ({
      name: h.name,
      handled: h.handled(),
      maxQueued: h.maxQueued,
      maxLagMs: h.maxLagMs,
    })),
    objects: pods.getStore().size,
    namespaces: pods.listIndexFuncValues(NamespaceIndex).length,
    byPhase,
    converged,
    errors,
  };

  errorSub.unsubscribe();
  for (const sub of lagSubs) sub.unsubscribe();
  await factory.shutdown();
  await api?.close();
  if (kubeconfigDir) await rm(kubeconfigDir, { recursive: true, force: true });
  out.write(renderSummary(summary));
  return summary;
}

/** Objects by namespace and phase, through the namespace index and namespace-scoped listers. */
function namespaceTable(pods: Informer<V1Pod>, pinned: ReadonlySet<string>): Pick<Frame, 'table' | 'phases'> {
  const rows = pods.listIndexFuncValues(NamespaceIndex).map((namespace) => {
    const phases = new Map<string, number>();
    const inNamespace = pods.lister().byNamespace(namespace).list();
    for (const p of inNamespace) phases.set(phaseOf(p), (phases.get(phaseOf(p)) ?? 0) + 1);
    return { namespace, phases, total: inNamespace.length };
  });
  rows.sort((a, b) => b.total - a.total || a.namespace.localeCompare(b.namespace));
  // The largest namespaces, and always those someone else changed (not folded into "+N more").
  const shown = rows.filter((r, i) => i < 8 || pinned.has(r.namespace));
  if (rows.length > shown.length) {
    const rest = rows.filter((r) => !shown.includes(r));
    const phases = new Map<string, number>();
    for (const r of rest) for (const [p, n] of r.phases) phases.set(p, (phases.get(p) ?? 0) + n);
    shown.push({ namespace: `+${rest.length} more`, phases, total: rest.reduce((n, r) => n + r.total, 0) });
  }
  return { table: shown, phases: PHASES };
}

/** A few lister queries with label selectors, as a controller would ask them. */
function listerLines(pods: Informer<V1Pod>, fake: boolean, failedSeen: number): string[] {
  const l = pods.lister();
  if (fake) {
    return [
      `lister  tier=backend: ${l.list('tier=backend').length} · shard in (0,1): ${l.list('shard in (0,1)').length}` +
        ` · shop, app=web,tier!=backend: ${l.byNamespace('shop').list('app=web,tier!=backend').length}`,
      `auditor saw ${failedSeen} pods fail`,
    ];
  }
  return [
    `lister  app.kubernetes.io/name: ${l.list('app.kubernetes.io/name').length} · kube-system: ${l.byNamespace('kube-system').list().length}`,
    `auditor saw ${failedSeen} pods fail`,
  ];
}

/** The summary as text. */
export function renderSummary(s: DemoSummary): string {
  const phases = Object.entries(s.byPhase)
    .sort((a, b) => b[1] - a[1])
    .map(([p, n]) => `${p} ${n}`)
    .join(', ');
  const lines = [
    '',
    'summary',
    `  source       ${s.source === 'fake' ? 'embedded fake API server (127.0.0.1)' : 'cluster from kubeconfig (read-only)'}`,
    `  ran          ${(s.ranMs / 1000).toFixed(1)} s`,
    ...(s.churn
      ? [
          `  changes made ${s.churn.created + s.churn.updated + s.churn.deleted} (created ${s.churn.created}, updated ${s.churn.updated}, deleted ${s.churn.deleted}, failed ${s.churn.failed})`,
        ]
      : []),
    `  events seen  add ${s.events.add}, update ${s.events.update}, delete ${s.events.delete}`,
    ...s.handlers.map(
      (h) =>
        `  handler      ${h.name.padEnd(8)} ${h.handled} handled, at most ${h.maxQueued} queued, max lag ${Math.round(h.maxLagMs)} ms`,
    ),
    `  store        ${s.objects} pods in ${s.namespaces} namespaces${phases ? `: ${phases}` : ''}`,
    ...(s.converged === undefined
      ? []
      : [
          `  converged    ${s.converged ? 'yes: the store equals the server (same pods, same resource versions)' : 'NO: the store differs from the server'}`,
        ]),
    `  errors       ${s.errors}`,
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseDemoArgs(process.argv.slice(2), process.env);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(usage);
    return;
  }
  const summary = await runDemo(parsed.options);
  // Exit now rather than wait for idle keep-alive sockets of the HTTP agent to time out.
  process.exit(summary.converged === false ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    process.stderr.write(`rxkube demo failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
