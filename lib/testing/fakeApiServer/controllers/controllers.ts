import type { SchedulerLike, Subscription } from 'rxjs';
import { ClusterRoleAggregator } from './clusterRoleAggregator.js';
import { GarbageCollector, type GcItem } from './garbageCollector.js';
import type { Change } from '../storage/history.js';
import { NamespaceController } from './namespaceController.js';
import { DisruptionController } from './disruptionController.js';
import { NamespaceDefaults } from './namespaceDefaults.js';
import type { Registry } from '../registry/store.js';
import type { ResourceTypes } from '../registry/resourceTypes.js';
import type { Storage } from '../storage/storage.js';

/**
 * When the fake's controllers (garbage collector, namespace controller, ClusterRole aggregation,
 * PodDisruptionBudget status, each namespace's `default` ServiceAccount and `kube-root-ca.crt`) act:
 * - `'scheduled'` (the default): on the server's scheduler, `controllerDelayMs` after the write
 *   that gave them work (0: the next macrotask with `asyncScheduler`; with a `TestScheduler`,
 *   when virtual time reaches it);
 * - `'immediate'`: before the write that gave them work returns (HTTP response included);
 * - `'off'`: never (as envtest: dependents stay, Terminating namespaces stay).
 *
 * @example
 * ```ts
 * const api = await startFakeApiServer({ garbageCollection: 'immediate' });
 * ```
 */
export type GarbageCollectionMode = 'scheduled' | 'immediate' | 'off';

type Item =
  | GcItem
  | { readonly kind: 'namespace'; readonly name: string }
  | { readonly kind: 'clusterRoleAggregation' }
  | { readonly kind: 'disruption'; readonly namespace: string }
  | { readonly kind: 'namespaceDefaults'; readonly namespace: string };

const itemId = (i: Item): string =>
  i.kind === 'namespace'
    ? `ns\u0000${i.name}`
    : i.kind === 'clusterRoleAggregation'
      ? 'aggregation'
      : i.kind === 'disruption'
        ? `pdb\u0000${i.namespace}`
        : i.kind === 'namespaceDefaults'
          ? `defaults\u0000${i.namespace}`
          : `${i.kind}\u0000${i.type.id}\u0000${i.key}`;

/** Items one drain does at most before yielding to the scheduler (a bound on any cascade). */
const MAX_ITEMS_PER_DRAIN = 100_000;

/**
 * The work queue of the fake's kube-controller-manager: storage changes feed it, items are done
 * once each (deduplicated by object) in a drain, which runs on the scheduler or at once.
 */
export class Controllers {
  private readonly queue = new Map<string, Item>();
  private readonly gc: GarbageCollector;
  private readonly namespaces: NamespaceController;
  private readonly aggregation: ClusterRoleAggregator;
  private readonly disruption: DisruptionController;
  private readonly defaults: NamespaceDefaults | undefined;
  private timer: Subscription | undefined;
  private draining = false;
  private closed = false;

  constructor(
    storage: Storage,
    types: ResourceTypes,
    registry: () => Registry,
    private readonly mode: GarbageCollectionMode,
    private readonly scheduler: SchedulerLike,
    private readonly delayMs: number,
    rootCa: (() => string) | undefined,
  ) {
    this.gc = new GarbageCollector(storage, types, registry);
    this.namespaces = new NamespaceController(storage, types, registry);
    this.aggregation = new ClusterRoleAggregator(storage, types, registry);
    this.disruption = new DisruptionController(storage, types, registry);
    this.defaults = rootCa && new NamespaceDefaults(storage, types, registry, rootCa);
  }

  /** The storage listener: records what a change makes due. */
  observe(c: Change): void {
    if (this.mode === 'off' || this.closed) return;
    for (const item of this.gc.observe(c)) this.enqueue(item);
    const ns = this.namespaces.observe(c);
    if (ns !== undefined) this.enqueue({ kind: 'namespace', name: ns });
    if (this.aggregation.observe(c)) this.enqueue({ kind: 'clusterRoleAggregation' });
    const budgets = this.disruption.observe(c);
    if (budgets !== undefined) this.enqueue({ kind: 'disruption', namespace: budgets });
    const defaults = this.defaults?.observe(c);
    if (defaults !== undefined) this.enqueue({ kind: 'namespaceDefaults', namespace: defaults });
  }

  private enqueue(item: Item): void {
    this.queue.set(itemId(item), item);
    if (this.mode === 'scheduled' && !this.timer && !this.draining) this.schedule();
  }

  private schedule(): void {
    this.timer = this.scheduler.schedule(() => {
      this.timer = undefined;
      this.drain();
    }, this.delayMs);
  }

  /** In `'immediate'` mode, does all due work now (called after each outer write). */
  settle(): void {
    if (this.mode === 'immediate' && !this.draining) this.drain();
  }

  private drain(): void {
    if (this.closed) return;
    this.draining = true;
    try {
      for (let n = 0; n < MAX_ITEMS_PER_DRAIN && this.queue.size > 0; n++) {
        const [id, item] = this.queue.entries().next().value as [string, Item];
        this.queue.delete(id);
        try {
          if (item.kind === 'namespace') this.namespaces.process(item.name);
          else if (item.kind === 'clusterRoleAggregation') this.aggregation.process();
          else if (item.kind === 'disruption') this.disruption.process(item.namespace);
          else if (item.kind === 'namespaceDefaults') this.defaults?.process(item.namespace);
          else this.gc.process(item);
        } catch {
          // The object changed or went meanwhile (a 404 or 409): the change that caused it brings the item back.
        }
      }
    } finally {
      this.draining = false;
    }
    if (this.queue.size > 0 && !this.timer) this.schedule();
  }

  /** Stops: pending work is dropped, no timer stays. */
  close(): void {
    this.closed = true;
    this.timer?.unsubscribe();
    this.timer = undefined;
    this.queue.clear();
  }
}
