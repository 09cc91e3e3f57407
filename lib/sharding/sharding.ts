import type { KubeConfig } from '@kubernetes/client-node';
import {
  asyncScheduler,
  BehaviorSubject,
  combineLatest,
  distinctUntilChanged,
  map,
  merge,
  of,
  startWith,
  switchMap,
  timer,
  type Observable,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { RxkubeError } from '../errors.js';
import { informer } from '../informer/informer.js';
import { leaderElection } from '../leaderelection/leaderElection.js';
import { leaseLock, type Lease } from '../leaderelection/leaseLock.js';
import { listWatch } from '../listwatch/createListWatch.js';
import type { Resource } from '../listwatch/resource.js';
import type { Transport } from '../transport/transport.js';
import { shardAssignment, type ShardAssignment } from './shardAssignment.js';
import { trackLiveMembers } from './trackLiveMembers.js';

/**
 * The label on membership Leases naming the sharded controller they belong to.
 *
 * @example
 * ```ts
 * listWatch<Lease>(kc, leasesResource, { namespace: 'ops', labelSelector: `${SHARD_LABEL}=widgets` });
 * ```
 */
export const SHARD_LABEL = 'rxkube.io/shard-of';

/**
 * coordination.k8s.io/v1 Leases, as a ListWatch resource.
 *
 * @example
 * ```ts
 * const leases = informer(listWatch<Lease>(kubeConfig, leasesResource, { namespace: 'kube-system' }));
 * ```
 */
export const leasesResource: Resource = Object.freeze({ group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true });

/**
 * Options of {@link sharding}. The timings are the membership Lease's, validated as leader
 * election's (leaseDuration > renewDeadline > 1.2 x retryPeriod).
 *
 * @example
 * ```ts
 * const config: ShardingConfig = { source: kubeConfig, namespace: 'ops', controllerName: 'widgets', identity: process.env.POD_NAME! };
 * ```
 */
export interface ShardingConfig {
  /** A KubeConfig (the client-node transport) or any Transport. */
  readonly source: KubeConfig | Transport;
  /** Where the membership Leases live. */
  readonly namespace: string;
  /** Labels the membership Leases (`rxkube.io/shard-of`) and names them `<controllerName>-<identity>`. */
  readonly controllerName: string;
  /** This replica (unique: the pod name). */
  readonly identity: string;
  /** Default 15 s. A member whose Lease has not changed for this long (by each replica's clock) drops out. */
  readonly leaseDuration?: number;
  /** Default 10 s. A replica that could not renew its membership for this long stops owning keys. */
  readonly renewDeadline?: number;
  /** Default 2 s. */
  readonly retryPeriod?: number;
  /**
   * How long a replica waits after its membership Lease is written before it owns keys, so that the
   * others (who drop those keys as soon as they see the Lease) have heard of it. Default retryPeriod.
   */
  readonly joinDelay?: number;
  /** Release the membership Lease on stop (default true), so the keys move at once; false simulates a crash. */
  readonly releaseOnStop?: boolean;
  readonly scheduler?: SchedulerLike;
  readonly random?: () => number;
}

/**
 * One replica's membership in a sharded controller and the keys it owns.
 *
 * @example
 * ```ts
 * const shard = sharding({ source: kc, namespace: 'ops', controllerName: 'widgets', identity: 'pod-a' });
 * shard.start();
 * keys$.pipe(filter((key) => shard.owns(key))).subscribe(enqueue);
 * ```
 */
export interface Shard {
  readonly identity: string;
  /** The current assignment, then each change (replays the current one). */
  readonly assignment$: Observable<ShardAssignment>;
  /**
   * The key filter of the current assignment, then of each change: a controller's `keyFilter$`
   * (`controller({ ..., keyFilter$: shard.keyFilter$ })` reconciles only this replica's keys).
   */
  readonly keyFilter$: Observable<(key: string) => boolean>;
  /** Membership Lease and Lease-watch errors (reported; both retry). */
  readonly errors$: Observable<RxkubeError>;
  /** Does this replica own `key` now? */
  owns(key: string): boolean;
  current(): ShardAssignment;
  start(): void;
  /** Leaves: owns nothing at once, then (unless `releaseOnStop: false`) releases its membership Lease so the keys move at once. */
  stop(): Promise<void>;
}

/**
 * Sharding by membership Leases and rendezvous hashing: each replica holds its own Lease
 * (`<controllerName>-<identity>`, labelled `rxkube.io/shard-of=<controllerName>`, renewed as a
 * leader election on it), watches the others', and owns the keys rendezvous hashing gives it among
 * the live members (see docs/ha.md for the handover window).
 *
 * @example
 * ```ts
 * const shard = sharding({ source: kubeConfig, namespace: 'ops', controllerName: 'widgets', identity: process.env.POD_NAME! });
 * shard.assignment$.subscribe((a) => console.log(`${a.self}: ${a.members.length} members, active ${a.active}`));
 * shard.start();
 * ```
 */
export function sharding(config: ShardingConfig): Shard {
  const scheduler = config.scheduler ?? asyncScheduler;
  const retryPeriod = config.retryPeriod ?? 2_000;
  const joinDelay = config.joinDelay ?? retryPeriod;
  const elector = leaderElection({
    lock: leaseLock(config.source, config.namespace, `${config.controllerName}-${config.identity}`, {
      labels: { [SHARD_LABEL]: config.controllerName },
    }),
    identity: config.identity,
    leaseDuration: config.leaseDuration,
    renewDeadline: config.renewDeadline,
    retryPeriod,
    releaseOnCancel: config.releaseOnStop ?? true,
    scheduler,
    random: config.random,
  });
  const leases = informer(
    listWatch<Lease & { metadata?: { name?: string } }>(config.source, leasesResource, {
      namespace: config.namespace,
      labelSelector: `${SHARD_LABEL}=${config.controllerName}`,
      scheduler,
    }),
    { scheduler },
  );
  const inactive = shardAssignment(config.identity, [], false);
  const assignment = new BehaviorSubject<ShardAssignment>(inactive);
  let running: Subscription | undefined;
  let stopped = false;

  const active$ = elector.leading$.pipe(
    switchMap((leading) => (leading ? timer(joinDelay, scheduler).pipe(map(() => true), startWith(false)) : of(false))),
    distinctUntilChanged(),
  );
  const members$ = leases.store$.pipe(
    map((s) => s.list()),
    trackLiveMembers(scheduler),
  );

  return {
    identity: config.identity,
    assignment$: assignment.asObservable(),
    keyFilter$: assignment.pipe(map((a) => (key: string) => a.owns(key))),
    errors$: merge(elector.errors$, leases.errors$),
    owns: (key) => assignment.value.owns(key),
    current: () => assignment.value,
    start() {
      if (running || stopped) return;
      running = combineLatest([members$, active$])
        .pipe(map(([members, active]) => shardAssignment(config.identity, members, active)))
        .subscribe((a) => assignment.next(a));
      elector.start();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      running?.unsubscribe();
      assignment.next(inactive);
      assignment.complete();
      await elector.stop();
      await leases.stop();
    },
  };
}
