// The Deployment controller example, runnable: `npx tsx examples/controller/main.ts`.
// By default it starts the embedded fake API server, creates three Deployments with their
// ReplicaSets and Pods, and plays a short scenario (pods start, a scale-up, a failure, a
// deletion) while the controller reports. With --kubeconfig FILE it watches a real cluster,
// read-only, for --duration seconds.
import { KubeConfig, type V1Deployment, type V1Pod, type V1ReplicaSet } from '@kubernetes/client-node';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { asyncScheduler, concatMap, from, lastValueFrom, timer, type SchedulerLike } from 'rxjs';
import '../../lib/transport/clientNode.js'; // the KubeConfig transport (importing 'rxkube' loads it)
import { builtInResources, sharedInformerFactory, stripManagedFields } from '../../lib/index.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { deploymentController, describeStatus, type DeploymentStatus } from './deploymentController.js';

const { deployments: DEPLOYMENTS, replicaSets: REPLICASETS, pods: PODS } = builtInResources;

const owner = (kind: string, obj: { metadata?: { name?: string; uid?: string } }) => ({
  apiVersion: kind === 'Deployment' || kind === 'ReplicaSet' ? 'apps/v1' : 'v1',
  kind,
  name: obj.metadata!.name!,
  uid: obj.metadata!.uid!,
  controller: true,
  blockOwnerDeletion: true,
});

/** Creates a Deployment, its ReplicaSet and `replicas` Pods (Pending), wired by owner references. */
function createDeployment(
  api: FakeApiServer,
  namespace: string,
  name: string,
  replicas: number,
): V1ReplicaSet {
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
    metadata: { namespace, name: `${name}-5d8f`, labels, ownerReferences: [owner('Deployment', deployment)] },
    spec: { replicas, selector: { matchLabels: labels } },
  });
  for (let i = 0; i < replicas; i++) createPod(api, rs, i);
  return rs;
}

function createPod(api: FakeApiServer, rs: V1ReplicaSet, i: number): V1Pod {
  return api.create<V1Pod>(PODS, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      namespace: rs.metadata!.namespace,
      name: `${rs.metadata!.name}-${i}`,
      labels: rs.spec!.selector.matchLabels,
      ownerReferences: [owner('ReplicaSet', rs)],
    },
    spec: { containers: [{ name: 'main', image: 'app:1' }] },
    status: { phase: 'Pending' },
  });
}

const setPhase = (api: FakeApiServer, namespace: string, name: string, phase: string) =>
  api.patch(PODS, namespace, name, { status: { phase } }, 'merge');

/** The scenario's steps, one per `stepMs`. */
function scenario(api: FakeApiServer, log: (line: string) => void): Array<() => void> {
  let shopApi: V1ReplicaSet | undefined;
  return [
    () => {
      log('scenario: shop/web and shop/api pods start running');
      for (let i = 0; i < 3; i++) setPhase(api, 'shop', `web-5d8f-${i}`, 'Running');
      for (let i = 0; i < 2; i++) setPhase(api, 'shop', `api-5d8f-${i}`, 'Running');
    },
    () => {
      log('scenario: shop/api scales to 3');
      api.patch(DEPLOYMENTS, 'shop', 'api', { spec: { replicas: 3 } }, 'merge');
      shopApi = api.get<V1ReplicaSet>(REPLICASETS, 'shop', 'api-5d8f');
      if (shopApi) createPod(api, shopApi, 2);
    },
    () => {
      log('scenario: a shop/web pod fails; blog/web pods start; the new shop/api pod runs');
      setPhase(api, 'shop', 'web-5d8f-1', 'Failed');
      for (let i = 0; i < 2; i++) setPhase(api, 'blog', `web-5d8f-${i}`, 'Running');
      setPhase(api, 'shop', 'api-5d8f-2', 'Running');
    },
    () => {
      log('scenario: blog/web is deleted (pods, ReplicaSet, Deployment)');
      for (let i = 0; i < 2; i++) api.delete(PODS, 'blog', `web-5d8f-${i}`);
      api.delete(REPLICASETS, 'blog', 'web-5d8f');
      api.delete(DEPLOYMENTS, 'blog', 'web');
    },
  ];
}

/** Runs the example to its end; returns the last status of every Deployment seen. */
export async function runControllerExample(
  options: { kubeconfig?: string; stepMs?: number; durationMs?: number } = {},
  io: { out: { write(s: string): unknown }; scheduler: SchedulerLike } = {
    out: process.stdout,
    scheduler: asyncScheduler,
  },
): Promise<ReadonlyMap<string, DeploymentStatus>> {
  const { out, scheduler } = io;
  const log = (line: string) => void out.write(`${line}\n`);
  const stepMs = options.stepMs ?? 1_000;
  let api: FakeApiServer | undefined;
  let kubeConfig: KubeConfig;
  if (options.kubeconfig) {
    kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(options.kubeconfig);
  } else {
    api = await startFakeApiServer();
    createDeployment(api, 'shop', 'web', 3);
    createDeployment(api, 'shop', 'api', 2);
    createDeployment(api, 'blog', 'web', 2);
    kubeConfig = api.kubeConfig();
  }

  const factory = sharedInformerFactory(kubeConfig, { transform: stripManagedFields, scheduler });
  const statuses = new Map<string, DeploymentStatus>();
  const controller = deploymentController(factory, { scheduler }).subscribe((s) => {
    statuses.set(s.key, s);
    log(`  ${describeStatus(s)}`);
  });
  factory.start();
  await factory.waitForCacheSync();

  if (api) {
    const fake = api;
    // One step per stepMs, then one more step's time for the last changes to arrive.
    await lastValueFrom(
      from([...scenario(fake, log), () => log('scenario: done')]).pipe(
        concatMap((step) => timer(stepMs, scheduler).pipe(concatMap(async () => step()))),
      ),
    );
    await lastValueFrom(timer(stepMs, scheduler));
  } else {
    await lastValueFrom(timer(options.durationMs ?? 10_000, scheduler));
  }

  controller.unsubscribe();
  await factory.shutdown();
  await api?.close();
  log('final:');
  for (const s of [...statuses.values()].sort((a, b) => a.key.localeCompare(b.key)))
    log(`  ${describeStatus(s)}`);
  return statuses;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { kubeconfig: { type: 'string' }, duration: { type: 'string' } } });
  runControllerExample({
    kubeconfig: values.kubeconfig ?? process.env.KUBECONFIG?.split(':')[0],
    durationMs: values.duration ? Number(values.duration) * 1000 : undefined,
  }).then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(
        `controller example failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      );
      process.exit(1);
    },
  );
}
