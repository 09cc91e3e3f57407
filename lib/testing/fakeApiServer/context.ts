import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { ConversionReview } from '../../webhooks/conversionReview.js';
import { Conversion } from './registry/conversion.js';
import { establishCustomResourceDefinitions } from './controllers/crdEstablisher.js';
import { serveCustomResourceDefinitions } from './controllers/crdServing.js';
import type { FakeApiServerOptions } from './options.js';
import { Faults } from './faults/faults.js';
import { seededRandom } from './random.js';
import { AdmissionChain } from './admission/chain.js';
import { namespaceLifecycle } from './admission/namespaceLifecycle.js';
import { installApiAdmission } from './admission/apiAdmission.js';
import { jsonPatch } from './registry/patch.js';
import { Registry } from './registry/store.js';
import { builtInStrategies } from './registry/builtInStrategies.js';
import { ResourceTypes } from './registry/resourceTypes.js';
import { builtInTypeRules } from './registry/rules/index.js';
import { now } from './registry/writeRequest.js';
import { Controllers } from './controllers/controllers.js';
import { CustomResourceSchemas } from './schema/customResourceSchemas.js';
import { realisticPod } from './seedPods.js';
import { Storage } from './storage/storage.js';
import { parseStored } from './storage/storedObject.js';
import { customResourceDefinitionType } from './registry/customResourceDefinitions.js';
import { WatchHub } from './watch/watchHub.js';
import { accessAuthorizers, denyListAuthorizer } from './auth/authorizer.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './rbac/bootstrapPolicy.js';
import { serverAccessControl } from './serverAccess.js';
import { rbacEscalation } from './auth/rbacWriteGuard.js';
import { generateCertificates, type GeneratedCertificates } from './auth/certificates.js';
import { serviceAccountAdmission } from './admission/serviceAccountAdmission.js';
import { objectKey } from './storage/storedObject.js';
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
  /** The server's certificates (none with `http: true`). */
  readonly certs: GeneratedCertificates | undefined;
}

/** The Namespace every server starts with, and those of `seedPods`. */
const DEFAULT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** Creates each CRD of the `crds` option as a client's POST would (admission included). */
function installCrds(registry: Registry, crds: NonNullable<FakeApiServerOptions['crds']>): void {
  crds.forEach((c, i) => {
    const crd = 'crd' in c && typeof c.crd === 'function' ? c.crd() : c;
    const body = JSON.parse(JSON.stringify(crd)) as { metadata?: { name?: unknown } };
    try {
      now(registry.create(customResourceDefinitionType, '', body, { sync: true }));
    } catch (e) {
      const name = typeof body.metadata?.name === 'string' ? body.metadata.name : '(no name)';
      throw new Error(`startFakeApiServer: crds[${i}] (${name}) was refused: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  });
}

/**
 * The in-memory server behind the HTTP listener: storage, served types and their strategies, the
 * admission chain, the store and the watch hub wired together as `options` say, with the default
 * namespaces, `options.namespaces` and `seedPods` pods created.
 */
export function createServerContext(options: FakeApiServerOptions): ServerState {
  const scheduler = options.scheduler ?? asyncScheduler;
  const rng = seededRandom(options.seed ?? 1);
  const storage = new Storage(options.historyLimit ?? 10000);
  // The schemas find served types and the types' strategies take their schema stages: each refers
  // to the other only when called, after both are made.
  const schemas: CustomResourceSchemas = new CustomResourceSchemas(storage, (g, v, p) => types.find(g, v, p));
  const rules = options.typeRules ? new Map([...builtInTypeRules, ...options.typeRules]) : builtInTypeRules;
  const types: ResourceTypes = new ResourceTypes(builtInStrategies(rules), (t) => schemas.stage(t));
  for (const def of options.resources ?? []) types.register(def);
  const namespaces = () => types.resolve('namespaces');
  const { access, tokenObjects } = serverAccessControl(storage, types, scheduler, options);
  const admission = new AdmissionChain([
    namespaceLifecycle({
      phaseOf: (ns) => {
        const s = storage.get(namespaces(), ns);
        return s === undefined ? 'Missing' : s.deleting ? 'Terminating' : 'Active';
      },
      ...(options.autoCreateNamespaces ?? false ? { create: (ns: string) => void now(store.create(namespaces(), '', { metadata: { name: ns } }, { sync: true })) } : {}),
    }),
    ...(options.serviceAccounts
      ? [
          serviceAccountAdmission({
            serviceAccount: (ns, name) => {
              const s = storage.get(types.resolve('serviceaccounts'), objectKey(ns, name));
              return s && parseStored(s);
            },
            random: () => rng.next(),
          }),
        ]
      : []),
    rbacEscalation(access),
  ]);
  installApiAdmission({
    storage,
    types: {
      find: (g, v, p) => types.find(g, v, p),
      all: () => types.all(),
      crdOf: (t) => storage.get(customResourceDefinitionType, `${t.plural}.${t.group}`),
    },
    chain: admission,
    scheduler,
    rng,
    jsonPatch,
    ...(options.webhooks ? { endpoints: options.webhooks } : {}),
  });
  const store = new Registry({ storage, types, rng, now: () => scheduler.now(), admission });
  const certs = options.http ? undefined : generateCertificates();
  // kube-root-ca.crt publishes the cluster's CA; a plain-HTTP server has none, so it makes one to publish.
  let publishedCa: string | undefined;
  const rootCa = () => (publishedCa ??= (certs ?? generateCertificates()).caCert);
  const controllers = new Controllers(storage, types, () => store, options.garbageCollection ?? 'scheduled', scheduler, options.controllerDelayMs ?? 0, options.serviceAccounts ? rootCa : undefined);
  const hub = new WatchHub();
  storage.onChange(schemas.listener());
  storage.onChange(serveCustomResourceDefinitions(types, storage)); // before the hub: a watch of the CRD sees it served
  storage.onChange((c) => hub.dispatch(c));
  storage.onChange((c) => controllers.observe(c));
  storage.onChange(
    establishCustomResourceDefinitions(
      store,
      scheduler,
      () => store.timestamp(),
      () => [...storage.snapshot(customResourceDefinitionType, storage.resourceVersion)].map(parseStored),
    ),
  );
  const waiter = rvWaiter(storage, scheduler, options.tooLargeResourceVersionWaitMs ?? 3000);
  const inProcessConversion = new Map((options.conversionWebhooks ?? []).map((w) => [w.crdName, (review: unknown) => w.review(review as ConversionReview)]));
  const conversion = new Conversion({ scheduler, timeoutMs: options.conversionWebhookTimeoutMs ?? 30000, inProcess: (crd) => inProcessConversion.get(crd), uid: () => rng.uuid() });
  const ctx: ServerContext = {
    storage,
    registry: store,
    conversion,
    types,
    schemas,
    admission,
    hub,
    scheduler,
    rng,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60000,
    initialBookmark: options.initialBookmark ?? false,
    watchList: options.watchList ?? true,
    shardedListAndWatch: options.shardedListAndWatch ?? false,
    tooLargeResourceVersionWaitMs: options.tooLargeResourceVersionWaitMs ?? 3000,
    slowMs: 0,
    authorizers: [denyListAuthorizer, ...accessAuthorizers(access)],
    access,
    tokenObjects,
    waitForRv: waiter.waitForRv,
  };
  const faults = new Faults(hub, storage, rng, (ms) => (ctx.slowMs = ms));
  seed(ctx, options);
  if (access.mode === 'RBAC') {
    // kube-apiserver's bootstrap policy; the aggregation controller fills admin, edit and view.
    const roles = types.resolve('clusterroles.rbac.authorization.k8s.io');
    const bindings = types.resolve('clusterrolebindings.rbac.authorization.k8s.io');
    for (const role of bootstrapClusterRoles) now(store.create(roles, '', structuredClone(role), { sync: true }));
    for (const binding of bootstrapClusterRoleBindings) now(store.create(bindings, '', structuredClone(binding), { sync: true }));
  }
  try {
    installCrds(store, options.crds ?? []);
  } catch (e) {
    controllers.close(); // nothing of this server may outlive the refusal
    throw e;
  }
  store.afterWrite = () => controllers.settle(); // after the seeds: they need no controller
  controllers.settle(); // but their namespaces' defaults, in 'immediate' mode now
  return {
    ctx,
    faults,
    certs,
    cancelWaits: () => {
      waiter.cancelAll();
      controllers.close();
    },
  };
}

/** The server's first objects: its namespaces, then `seedPods` realistic pods (their namespaces first). */
function seed({ registry, types, storage }: ServerContext, options: FakeApiServerOptions): void {
  const podCount = options.seedPods ?? 0;
  const pods = Array.from({ length: podCount }, (_, i) => realisticPod(i));
  const nsType = types.resolve('namespaces');
  for (const ns of new Set([...DEFAULT_NAMESPACES, ...(options.namespaces ?? []), ...pods.map((p) => p.metadata.namespace)])) {
    if (!storage.get(nsType, ns)) now(registry.create(nsType, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, { sync: true }));
  }
  const podType = types.resolve('pods');
  // Stored as kube-apiserver would serve them, status and managedFields included (not as an rxkube-testing create).
  for (const pod of pods) now(registry.create(podType, pod.metadata.namespace, pod, { withStatus: true, owner: 'preset', sync: true }));
}
