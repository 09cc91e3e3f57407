import { Subject, Subscription, type SchedulerLike } from 'rxjs';
import { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import type { Notification } from '../informer/notification.js';
import { metaNamespaceKeyFunc } from '../meta/keys.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { awaitOwnWrites, type OwnWritesOutcome } from './awaitOwnWrites.js';
import type { WriteLedger } from './writeLedger.js';

/**
 * Options of {@link OwnWritesGate}.
 *
 * @example
 * ```ts
 * const options: OwnWritesGateOptions = { timeoutMs: 5000, scheduler: asyncScheduler, report: (key, o) => console.log(key, o.kind) };
 * ```
 */
export interface OwnWritesGateOptions {
  readonly timeoutMs: number;
  readonly scheduler: SchedulerLike;
  /** Told of each wait that happened (a key with writes recorded), once it ends. */
  readonly report: (key: string, outcome: OwnWritesOutcome) => void;
}

/**
 * Read-your-own-writes for a controller: reconciles record their writes in the {@link WriteLedger}
 * (under the key reconciled), and {@link wait} holds a key's next reconcile until the informers
 * have shown them, or the bound passes.
 *
 * @example
 * ```ts
 * if (gate.waits('ns/web')) gate.wait('ns/web', (waited) => reconcile('ns/web', waited));
 * ```
 */
export class OwnWritesGate {
  private readonly changes = new Subject<{ readonly cache: number; readonly key: string }>();
  private readonly waiting = new Set<Subscription>();
  /** Keys whose wait a change being handed out ended (they reconcile on it at once). */
  private resolved: Set<string> | undefined;

  constructor(
    readonly ledger: WriteLedger,
    private readonly options: OwnWritesGateOptions,
  ) {}

  /**
   * Informer `cache` handed out `change` (its store already shows it). Answers the keys whose wait
   * it ended: they have just started reconciling on it, so the change need not queue them again.
   */
  saw(cache: number, change: Notification<KubeObjectLike>): ReadonlySet<string> | undefined {
    const c = this.ledger.caches[cache];
    if (c?.kind === undefined) this.ledger.learnKind(cache, objectOf(change));
    if (this.waiting.size === 0) return undefined;
    const obj = objectOf(change);
    const key = change.type === 'delete' && change.object instanceof DeletedFinalStateUnknown ? change.object.key : keyOf(obj);
    if (key === undefined) return undefined;
    const resolved = (this.resolved = new Set());
    try {
      this.changes.next({ cache, key });
    } finally {
      this.resolved = undefined;
    }
    return resolved;
  }

  /** Whether the last reconcile of `key` recorded writes its next one must wait for. */
  waits(key: string): boolean {
    return this.ledger.has(key);
  }

  /**
   * Calls `seen` (with the seconds waited) once the writes recorded for `key` are seen (at once,
   * synchronously, if none are), or the bound passed (reported first). Forgets those writes.
   */
  wait(key: string, seen: (waitedSeconds: number) => void): void {
    const pending = this.ledger.take(key);
    if (pending === undefined || pending.length === 0) return seen(0);
    const wait = { sub: undefined as Subscription | undefined, ended: false };
    wait.sub = awaitOwnWrites(pending, {
      read: (w) => this.ledger.read(w),
      changes$: this.changes,
      timeoutMs: this.options.timeoutMs,
      scheduler: this.options.scheduler,
    }).subscribe((outcome) => {
      wait.ended = true;
      // Ended synchronously: `wait.sub` is not assigned yet, and never added.
      if (wait.sub !== undefined) this.waiting.delete(wait.sub);
      this.options.report(key, outcome);
      this.resolved?.add(key);
      seen(outcome.waitedMs / 1000);
    });
    if (!wait.ended) this.waiting.add(wait.sub);
  }

  /** Forgets the writes recorded for `key` (a key this replica no longer reconciles). */
  forget(key: string): void {
    this.ledger.take(key);
  }

  /** Ends every wait (their keys are let go by the controller) and forgets the writes recorded. */
  close(): void {
    for (const sub of this.waiting) sub.unsubscribe();
    this.waiting.clear();
    this.ledger.clear();
  }
}

function objectOf(change: Notification<KubeObjectLike>): KubeObjectLike {
  if (change.type === 'update') return change.newObject;
  const obj = change.object as KubeObjectLike | DeletedFinalStateUnknown<KubeObjectLike>;
  return obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
}

function keyOf(obj: KubeObjectLike): string | undefined {
  try {
    return metaNamespaceKeyFunc(obj);
  } catch {
    return undefined;
  }
}
