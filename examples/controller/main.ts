// The ready-pods controller, runnable: `npx tsx --tsconfig tsconfig.spec.json examples/controller/main.ts`.
// By default it starts the embedded fake API server, creates Deployments with their ReplicaSets
// and Pods, and plays a short scenario (pods become ready, a scale-up, a pod fails, a deletion)
// while the controller keeps each Deployment's `example.com/ready-pods` label and records Events.
// With --kubeconfig FILE it runs against a real cluster (it WRITES the label, the condition and
// a ConfigMap per Deployment there) for
// --duration seconds.
import { AppsV1Api, EventsV1Api, KubeConfig, type V1Deployment, type V1Pod, type V1ReplicaSet } from '@kubernetes/client-node';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { asyncScheduler, concatMap, filter, firstValueFrom, from, interval, lastValueFrom, take, timeout, timer, type SchedulerLike } from 'rxjs';
import {
  builtInResources,
  clientNodeEventSink,
  controllerReference,
  eventRecorder,
  selects,
  sharedInformerFactory,
  stripManagedFields,
} from 'rxkube';
import { startFakeApiServer, type FakeApiServer } from 'rxkube/testing';
import { READY_PODS_LABEL, isReady, readyPodsController } from './readyPodsController.js';

const { deployments: DEPLOYMENTS, replicaSets: REPLICASETS, pods: PODS } = builtInResources;

/** Creates a Deployment, its ReplicaSet and `replicas` Pods (not ready), wired by owner references; and their namespace if it is missing. */
export function createDeployment(api: FakeApiServer, namespace: string, name: string, replicas: number): V1ReplicaSet {
  // As on a cluster, nothing is created in a namespace that does not exist (NamespaceLifecycle's 404).
  if (!api.get('namespaces', undefined, namespace)) api.create('namespaces', { metadata: { name: namespace } });
  const labels = { app: name };
  const deployment = api.create<V1Deployment>(DEPLOYMENTS, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { namespace, name, labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name, image: `${name}:1` }] } },
    },
  });
  const rs = api.create<V1ReplicaSet>(REPLICASETS, {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { namespace, name: `${name}-5d8f`, labels, ownerReferences: [controllerReference(deployment)] },
    spec: { replicas, selector: { matchLabels: labels }, template: deployment.spec!.template },
  });
  for (let i = 0; i < replicas; i++) createPod(api, rs, i);
  return rs;
}

export function createPod(api: FakeApiServer, rs: V1ReplicaSet, i: number): V1Pod {
  return api.create<V1Pod>(PODS, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      namespace: rs.metadata!.namespace,
      name: `${rs.metadata!.name}-${i}`,
      labels: rs.spec!.selector.matchLabels,
      ownerReferences: [controllerReference(rs)],
    },
    spec: { containers: [{ name: 'main', image: 'app:1' }] },
    status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }] },
  }, { withStatus: true }); // as the kubelet would have reported it
}

/** Sets a Pod's Ready condition, as the kubelet does: through the status subresource. */
export const setReady = (api: FakeApiServer, namespace: string, name: string, ready: boolean) =>
  api.patch(PODS, namespace, name, { status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } }, 'merge', 'status');

/** The scenario's steps, one per `stepMs`. */
function scenario(api: FakeApiServer, log: (line: string) => void): Array<() => void> {
  return [
    () => {
      log('scenario: shop/web and shop/api pods become ready');
      for (let i = 0; i < 3; i++) setReady(api, 'shop', `web-5d8f-${i}`, true);
      for (let i = 0; i < 2; i++) setReady(api, 'shop', `api-5d8f-${i}`, true);
    },
    () => {
      log('scenario: shop/api scales to 3, its new pod becomes ready; a shop/web pod fails');
      api.patch(DEPLOYMENTS, 'shop', 'api', { spec: { replicas: 3 } }, 'merge');
      const rs = api.get<V1ReplicaSet>(REPLICASETS, 'shop', 'api-5d8f');
      if (rs) setReady(api, 'shop', createPod(api, rs, 2).metadata!.name!, true);
      setReady(api, 'shop', 'web-5d8f-1', false);
    },
    () => {
      log('scenario: blog/web is deleted (pods, ReplicaSet, Deployment)');
      for (let i = 0; i < 2; i++) api.delete(PODS, 'blog', `web-5d8f-${i}`);
      api.delete(REPLICASETS, 'blog', 'web-5d8f');
      api.delete(DEPLOYMENTS, 'blog', 'web');
    },
  ];
}

/** Whether, on the server, every Deployment's label is the number of ready Pods it selects. */
function converged(api: FakeApiServer): boolean {
  const pods = api.list<Pod>(PODS).items;
  return api.list<V1Deployment>(DEPLOYMENTS).items.every((d) => {
    const want = pods.filter((p) => p.metadata?.namespace === d.metadata?.namespace && selects(d, p) && isReady(p)).length;
    return d.metadata?.labels?.[READY_PODS_LABEL] === String(want);
  });
}

/** What each Deployment's label says at the end, by `namespace/name`. */
export type ReadyLabels = ReadonlyMap<string, string | undefined>;

/** Runs the example to its end; returns the label of every Deployment left. */
export async function runControllerExample(
  options: { kubeconfig?: string; stepMs?: number; durationMs?: number } = {},
  io: { out: { write(s: string): unknown }; scheduler: SchedulerLike } = { out: process.stdout, scheduler: asyncScheduler },
): Promise<ReadyLabels> {
  const { out, scheduler } = io;
  const log = (line: string) => void out.write(`${line}\n`);
  const stepMs = options.stepMs ?? 1_000;
  let api: FakeApiServer | undefined;
  let kubeConfig: KubeConfig;
  if (options.kubeconfig) {
    kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(options.kubeconfig);
  } else {
    api = await startFakeApiServer({ namespaces: ['shop', 'blog'] });
    createDeployment(api, 'shop', 'web', 3);
    createDeployment(api, 'shop', 'api', 2);
    createDeployment(api, 'blog', 'web', 2);
    kubeConfig = api.kubeConfig();
  }

  const factory = sharedInformerFactory(kubeConfig, { transform: stripManagedFields, scheduler });
  const recorder = eventRecorder({
    sink: clientNodeEventSink(kubeConfig.makeApiClient(EventsV1Api)),
    reportingController: 'example.com/ready-pods',
    reportingInstance: 'example-0',
    scheduler,
  });
  recorder.written$.subscribe((e) => log(`  event ${e.reason}: ${e.regarding.namespace}/${e.regarding.name}: ${e.note}`));
  recorder.errors$.subscribe((e) => log(`  event not written: ${e.message}`));
  const ctl = readyPodsController(factory, { kubeConfig, apps: kubeConfig.makeApiClient(AppsV1Api), recorder });
  // A 422 here is the label patch's resourceVersion test: the cache was behind our own last write. Retried.
  ctl.errors$.subscribe((e) => log(`  reconcile failed, will retry: ${e.message.split('\n')[0]}`));
  ctl.start();
  await factory.waitForCacheSync();

  if (api) {
    const fake = api;
    // One step per stepMs, then one more step's time for the last changes to be reconciled.
    await lastValueFrom(
      from([...scenario(fake, log), () => log('scenario: done')]).pipe(
        concatMap((step) => timer(stepMs, scheduler).pipe(concatMap(async () => step()))),
      ),
    );
    // Then until every Deployment's label is right (bounded: a controller that never gets there fails).
    await firstValueFrom(interval(50, scheduler).pipe(filter(() => converged(fake)), take(1), timeout({ first: 20_000, scheduler })));
  } else {
    await lastValueFrom(timer(options.durationMs ?? 10_000, scheduler));
  }

  await ctl.stop();
  recorder.close();
  // What the server has (the fake's), else what the cache last saw.
  const deployments = api ? api.list<V1Deployment>(DEPLOYMENTS).items : factory.deployments().list();
  const labels = new Map(
    deployments.map((d) => [`${d.metadata?.namespace}/${d.metadata?.name}`, d.metadata?.labels?.[READY_PODS_LABEL]] as const),
  );
  await factory.shutdown();
  await api?.close();
  log('final:');
  for (const [key, ready] of [...labels].sort(([a], [b]) => a.localeCompare(b))) log(`  ${key}: ${READY_PODS_LABEL}=${ready}`);
  return labels;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { kubeconfig: { type: 'string' }, duration: { type: 'string' } } });
  runControllerExample({
    kubeconfig: values.kubeconfig ?? process.env.KUBECONFIG?.split(':')[0],
    durationMs: values.duration ? Number(values.duration) * 1000 : undefined,
  }).then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`controller example failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
