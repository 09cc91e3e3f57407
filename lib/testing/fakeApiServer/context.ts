import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { establishCustomResourceDefinitions } from './controllers/crdEstablisher.js';
import { serveCustomResourceDefinitions, servedAtStart } from './controllers/crdServing.js';
import { customResourceDefinitionType } from './registry/customResourceDefinitions.js';
import type { FakeApiServerOptions } from './options.js';
import { Faults } from './faults/faults.js';
import { seededRandom } from './random.js';
import type { Registry } from './registry/store.js';
import { ClusterRegistry } from './registry/clusterRegistry.js';
import { Controllers } from './controllers/controllers.js';
import { ResourceTypes } from './resources.js';
import { CustomResourceSchemas } from './schema/customResourceSchemas.js';
import { realisticPod } from './seedPods.js';
import { Storage } from './storage/storage.js';
import { WatchHub } from './watch/watchHub.js';
import { denyListAuthorizer } from './auth/authorizer.js';
import type { ServerContext } from './handlers/serverContext.js';

export type { ServerContext };

/** Builds `waitForRv` and a canceller for the waits still pending at close. */
export function rvWaiter(storage: Storage, scheduler: SchedulerLike, waitMs: number): { waitForRv: (rv: number) => Promise<boolean>; cancelAll: () => void } {
  const pending = new Set<() => void>();
  const waitForRv = (rv: number): Promise<boolean> => {
    if (storage.resourceVersion >= rv) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        off();
        timer.unsubscribe();
        pending.delete(cancel);
        resolve(ok);
      };
      const cancel = () => done(false);
      const off = storage.onChange(() => {
        if (storage.resourceVersion >= rv) done(true);
      });
      const timer = scheduler.schedule(() => done(false), waitMs);
      pending.add(cancel);
    });
  };
  return { waitForRv, cancelAll: () => [...pending].forEach((c) => c()) };
}

/** A server's context, its faults, and the canceller of the waits still pending (for close). */
export interface ServerState {
  readonly ctx: ServerContext;
  readonly faults: Faults;
  readonly cancelWaits: () => void;
}

/** Creates each CRD of the `crds` option as a client's POST would (admission included). */
function installCrds(registry: Registry, crds: NonNullable<FakeApiServerOptions['crds']>): void {
  crds.forEach((c, i) => {
    const crd = 'crd' in c && typeof c.crd === 'function' ? c.crd() : c;
    const body = JSON.parse(JSON.stringify(crd)) as { metadata?: { name?: unknown } };
    try {
      registry.create(customResourceDefinitionType, '', body);
    } catch (e) {
      const name = typeof body.metadata?.name === 'string' ? body.metadata.name : '(no name)';
      throw new Error(`startFakeApiServer: crds[${i}] (${name}) was refused: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  });
}

/**
 * The in-memory server behind the HTTP listener: storage, resource types, registry and watch hub
 * wired together as `options` say, with the default namespaces and `seedPods` pods created.
 */
export function createServerContext(options: FakeApiServerOptions): ServerState {
  const scheduler = options.scheduler ?? asyncScheduler;
  const rng = seededRandom(options.seed ?? 1);
  const storage = new Storage(options.historyLimit ?? 10000);
  const types = new ResourceTypes(servedAtStart);
  for (const def of options.resources ?? []) types.register(def);
  const schemas = new CustomResourceSchemas(storage, types);
  const registry: Registry = new ClusterRegistry(storage, types, rng, () => scheduler.now(), options.autoCreateNamespaces ?? true, schemas);
  const controllers = new Controllers(storage, types, () => registry, options.garbageCollection ?? 'scheduled', scheduler, options.controllerDelayMs ?? 0);
  const hub = new WatchHub();
  storage.onChange(schemas.listener());
  storage.onChange(serveCustomResourceDefinitions(types)); // before the hub: a watch of the CRD sees it served
  storage.onChange((c) => hub.dispatch(c));
  storage.onChange((c) => controllers.observe(c));
  storage.onChange(establishCustomResourceDefinitions(registry, scheduler, () => new Date(Math.floor(scheduler.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z')));
  const waiter = rvWaiter(storage, scheduler, options.tooLargeResourceVersionWaitMs ?? 3000);
  const ctx: ServerContext = {
    storage,
    registry,
    types,
    schemas,
    hub,
    scheduler,
    rng,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60000,
    initialBookmark: options.initialBookmark ?? false,
    watchList: options.watchList ?? true,
    shardedListAndWatch: options.shardedListAndWatch ?? false,
    tooLargeResourceVersionWaitMs: options.tooLargeResourceVersionWaitMs ?? 3000,
    slowMs: 0,
    authorizers: [denyListAuthorizer],
    waitForRv: waiter.waitForRv,
  };
  const faults = new Faults(hub, storage, rng, (ms) => (ctx.slowMs = ms));
  for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    registry.create(types.resolve('namespaces'), '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  }
  try {
    installCrds(registry, options.crds ?? []);
  } catch (e) {
    controllers.close(); // nothing of this server may outlive the refusal
    throw e;
  }
  for (let i = 0; i < (options.seedPods ?? 0); i++) {
    const pod = realisticPod(i);
    // Stored as kube-apiserver would serve it, status and managedFields included (not as an rxkube-testing create).
    registry.create(types.resolve('pods'), pod.metadata.namespace, pod, { withStatus: true, owner: 'preset' });
  }
  (registry as ClusterRegistry).attach(controllers); // after the seeds: they need no controller
  return {
    ctx,
    faults,
    cancelWaits: () => {
      waiter.cancelAll();
      controllers.close();
    },
  };
}
