// A read-only controller: for every Deployment, its Pods (through its ReplicaSets), found with
// owner indexes. Changes to any of the three resources enqueue the owning Deployment's key; keys
// are coalesced for a short window and each is reconciled once per window.
import type { V1Deployment, V1Pod, V1ReplicaSet } from '@kubernetes/client-node';
import {
  asyncScheduler,
  bufferTime,
  distinctUntilChanged,
  filter,
  forkJoin,
  from,
  groupBy,
  map,
  merge,
  mergeMap,
  skipUntil,
  take,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import {
  ControllerOwnerIndex as ByOwner,
  controllerOf,
  controllerOwnerIndexers,
  touched,
  type SharedInformer,
  type SharedInformerFactory,
} from '../../lib/index.js';

/** What the controller concludes about one Deployment. */
export interface DeploymentStatus {
  readonly key: string;
  /** False once the Deployment is gone. */
  readonly exists: boolean;
  readonly desired: number;
  readonly pods: number;
  readonly running: number;
  readonly pending: number;
  readonly failed: number;
}

/** `shop/web: 3 desired, 3 pods (2 running, 1 pending, 0 failed)` or `shop/web: deleted`. */
export function describeStatus(s: DeploymentStatus): string {
  return s.exists
    ? `${s.key}: ${s.desired} desired, ${s.pods} pods (${s.running} running, ${s.pending} pending, ${s.failed} failed)`
    : `${s.key}: deleted`;
}

const keyOf = (obj: { metadata?: { namespace?: string; name?: string } }) =>
  `${obj.metadata?.namespace}/${obj.metadata?.name}`;

/** The informers the controller reads, with the owner indexes it needs. */
export function controllerInformers(factory: SharedInformerFactory): {
  deployments: SharedInformer<V1Deployment>;
  replicaSets: SharedInformer<V1ReplicaSet>;
  pods: SharedInformer<V1Pod>;
} {
  return {
    deployments: factory.deployments(),
    replicaSets: factory.replicaSets({ indexers: controllerOwnerIndexers }),
    pods: factory.pods({ indexers: controllerOwnerIndexers }),
  };
}

/**
 * The controller, as a cold Observable of statuses: subscribing adds its handlers (each `events$`
 * subscription is one), unsubscribing removes them. Emits a Deployment's status when it changes.
 */
export function deploymentController(
  factory: SharedInformerFactory,
  options: { scheduler?: SchedulerLike; coalesceMs?: number } = {},
): Observable<DeploymentStatus> {
  const scheduler = options.scheduler ?? asyncScheduler;
  const { deployments, replicaSets, pods } = controllerInformers(factory);

  // Which Deployment a ReplicaSet or Pod belongs to, through controller owner references.
  const deploymentOfReplicaSet = (rs: V1ReplicaSet): string[] => {
    const owner = controllerOf(rs);
    return owner?.kind === 'Deployment' ? [`${rs.metadata?.namespace}/${owner.name}`] : [];
  };
  const deploymentOfPod = (pod: V1Pod): string[] => {
    const owner = controllerOf(pod);
    if (owner?.kind !== 'ReplicaSet') return [];
    const rs = replicaSets
      .lister()
      .byNamespace(pod.metadata?.namespace ?? '')
      .get(owner.name);
    return rs ? deploymentOfReplicaSet(rs) : [];
  };

  const reconcile = (key: string): DeploymentStatus => {
    const deployment = deployments.lister().get(key);
    if (!deployment) return { key, exists: false, desired: 0, pods: 0, running: 0, pending: 0, failed: 0 };
    const owned = replicaSets
      .byIndex(ByOwner, deployment.metadata?.uid ?? '')
      .flatMap((rs) => pods.byIndex(ByOwner, rs.metadata?.uid ?? ''));
    const phase = (p: string) => owned.filter((pod) => pod.status?.phase === p).length;
    return {
      key,
      exists: true,
      desired: deployment.spec?.replicas ?? 1,
      pods: owned.length,
      running: phase('Running'),
      pending: phase('Pending'),
      failed: phase('Failed'),
    };
  };

  const synced$ = forkJoin(
    [deployments, replicaSets, pods].map((i) => i.synced$.pipe(filter(Boolean), take(1))),
  );
  const keys$ = merge(
    deployments.events$.pipe(touched(), map(keyOf)),
    replicaSets.events$.pipe(touched(), mergeMap(deploymentOfReplicaSet)),
    pods.events$.pipe(touched(), mergeMap(deploymentOfPod)),
  );
  return merge(
    // Once all three caches are in: every Deployment once.
    synced$.pipe(map(() => deployments.listKeys())),
    // Then: the keys touched in each window, each once.
    keys$.pipe(bufferTime(options.coalesceMs ?? 100, scheduler), skipUntil(synced$)),
  ).pipe(
    mergeMap((keys) => from(new Set(keys))),
    map(reconcile),
    // Report a Deployment only when its status changes.
    groupBy((s) => s.key),
    mergeMap((byKey) => byKey.pipe(distinctUntilChanged((a, b) => describeStatus(a) === describeStatus(b)))),
  );
}
