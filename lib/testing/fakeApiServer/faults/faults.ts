import type { Status } from '../../../errors.js';
import type { Change } from '../storage/history.js';
import { Partitions, type PartitionSpec } from './partitions.js';
import type { Random } from '../random.js';
import { failure, qualifiedResource, statusForCode } from '../status.js';
import type { Storage } from '../storage/storage.js';
import type { WatchHub } from '../watch/watchHub.js';
import { errorLine } from '../watch/watchLines.js';


/** The path prefix of the fault control API over HTTP (not a Kubernetes path). */
export const CONTROL_PREFIX = '/rxkube/faults/';

/**
 * What an injected failure matches a request on (its request info, as the router parsed it).
 *
 * @example
 * ```ts
 * const target: FaultTarget = { isResourceRequest: true, verb: 'list', group: 'apps', resource: 'deployments', namespace: 'ns' };
 * ```
 */
export interface FaultTarget {
  readonly isResourceRequest: boolean;
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly namespace: string;
}

/**
 * Which requests `failNext` fails: the status code, and optionally only some verbs or resources.
 *
 * @example
 * ```ts
 * api.faults.failNext(2, { code: 429, retryAfterSeconds: 1, verb: 'list', resource: 'pods' });
 * ```
 */
export interface FailNextOptions {
  /** 429, 500, 503, 401, 403, or any other code. */
  readonly code: number;
  /** Sets `details.retryAfterSeconds` and the `Retry-After` header (client-go then retries silently). */
  readonly retryAfterSeconds?: number;
  readonly verb?: string | ReadonlyArray<string>;
  /** `pods`, `deployments.apps`. */
  readonly resource?: string;
  readonly message?: string;
}

/**
 * The ERROR event `sendWatchError` writes on open watches before closing them.
 *
 * @example
 * ```ts
 * api.faults.sendWatchError({ code: 410, reason: 'Gone' });
 * ```
 */
export type WatchErrorSpec =
  | { readonly code: 410; readonly reason?: 'Expired' | 'Gone'; readonly message?: string }
  | { readonly code: 500; readonly message?: string }
  | { readonly code: number; readonly reason?: string; readonly message?: string };

/**
 * A committed change, as `dropEvents` predicates see it.
 *
 * @example
 * ```ts
 * api.faults.dropEvents((e: DroppableEvent) => e.resource === 'pods' && e.type === 'DELETED');
 * ```
 */
export interface DroppableEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** `pods`, `deployments.apps`. */
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  readonly resourceVersion: string;
}

/**
 * Which changes `dropEvents` keeps from open watches (the store still changes): the next N, those a
 * predicate picks, those matching fields (optionally only the first `count` of them), or each with
 * a probability drawn from the server's seeded random source.
 *
 * @example
 * ```ts
 * api.faults.dropEvents(1);
 * api.faults.dropEvents((e) => e.type === 'DELETED');
 * api.faults.dropEvents({ match: { name: 'a' }, count: 1 });
 * api.faults.dropEvents({ probability: 0.1 });
 * ```
 */
export type DropEventsSpec =
  | number
  | ((e: DroppableEvent) => boolean)
  | { readonly probability: number }
  | { readonly match: Partial<DroppableEvent>; readonly count?: number };

/**
 * The faults of a fake API server (in-process: synchronous). `remoteFaults` offers the same over
 * HTTP for a server in another process. Each returns how many watches or requests it affected where
 * that makes sense.
 *
 * @example
 * ```ts
 * api.faults.failNext(1, { code: 500, verb: 'watch' });
 * api.faults.compact();
 * ```
 */
export interface FaultControl {
  /** Ends every open watch cleanly (terminating chunk), or abruptly (socket destroyed). */
  dropWatches(options?: { readonly abrupt?: boolean }): number;
  /** Drops chosen changes from open watches while the store still changes (client-go's DropWatch). */
  dropEvents(spec: DropEventsSpec): void;
  /** Stops dropping events. */
  stopDroppingEvents(): void;
  /** Writes an ERROR event on every open watch, then closes it. */
  sendWatchError(spec: WatchErrorSpec): number;
  /** Fails the next `count` matching requests with a Status. */
  failNext(count: number, options: FailNextOptions): void;
  /** Compacts history now: every older revision becomes too old (410) to watch, list exactly, or continue. */
  compact(): void;
  /** Open watches stop sending anything (no events, bookmarks or end) but keep their sockets. */
  stallWatches(): number;
  /** Delays every event line by `ms` on the server's scheduler (0 restores). Applies to new watches too. */
  slowEvents(ms: number): void;
  /** Writes a line that is not JSON on every open watch. */
  malformedLine(): number;
  /** Sends a BOOKMARK now on every open watch that allows bookmarks. */
  bookmarkNow(): number;
  /**
   * Cuts one client off (by user or User-Agent): its requests hang or are reset until `heal`, to
   * simulate a network partition (a leader that can no longer renew its Lease).
   */
  partition(spec: PartitionSpec): number;
  /** Heals the partitions `spec` names (all without one); hung requests are reset. */
  heal(spec?: Pick<PartitionSpec, 'user' | 'userAgent'>): number;
  /** How many requests a `'hang'` partition holds now (to wait, boundedly, for a request to be cut off). */
  hungRequests(): number;
  /** Clears pending failures, drops, slowness and partitions. */
  reset(): void;
}

interface Failure {
  remaining: number;
  readonly options: FailNextOptions;
}

/** The in-process fault state of one server. */
export class Faults implements FaultControl {
  private readonly failures: Failure[] = [];
  /** The partitions in force; the server asks it about every request. */
  readonly partitions = new Partitions();

  constructor(
    private readonly hub: WatchHub,
    private readonly storage: Storage,
    private readonly rng: Random,
    private readonly setSlow: (ms: number) => void,
  ) {}

  dropWatches(options?: { readonly abrupt?: boolean }): number {
    const all = this.hub.all();
    for (const s of all) {
      if (options?.abrupt) s.destroy();
      else s.end();
    }
    return all.length;
  }

  dropEvents(spec: DropEventsSpec): void {
    const view = (c: Change): DroppableEvent => ({
      type: c.type,
      resource: c.resource.id,
      namespace: c.obj.namespace,
      name: c.obj.name,
      resourceVersion: String(c.rv),
    });
    if (typeof spec === 'number') {
      let left = spec;
      this.hub.dropFilter = () => left-- > 0;
    } else if (typeof spec === 'function') {
      this.hub.dropFilter = (c) => spec(view(c));
    } else if ('probability' in spec) {
      const p = spec.probability;
      this.hub.dropFilter = () => this.rng.next() < p;
    } else {
      let left = spec.count ?? Infinity;
      const m = spec.match as { [k: string]: string | undefined };
      this.hub.dropFilter = (c) => {
        const v = view(c) as unknown as { [k: string]: string };
        if (left <= 0 || !Object.keys(m).every((k) => m[k] === undefined || m[k] === v[k])) return false;
        left--;
        return true;
      };
    }
  }

  stopDroppingEvents(): void {
    this.hub.dropFilter = undefined;
  }

  sendWatchError(spec: WatchErrorSpec): number {
    let status: Status;
    if (spec.code === 410) {
      const reason = ('reason' in spec && spec.reason) || 'Expired';
      status = failure(410, reason, spec.message ?? `too old resource version: ${this.storage.history.compactedRv} (${this.storage.resourceVersion})`);
    } else {
      status = statusForCode(spec.code, undefined, spec.message);
      if ('reason' in spec && spec.reason) status.reason = spec.reason;
    }
    const all = this.hub.all();
    const line = errorLine(status);
    for (const s of all) {
      s.send(line);
      s.end();
    }
    return all.length;
  }

  failNext(count: number, options: FailNextOptions): void {
    this.failures.push({ remaining: count, options });
  }

  /** The Status to answer `info` with, if a pending failure matches it (consuming one). */
  takeFailure(info: FaultTarget): Status | undefined {
    for (const f of this.failures) {
      const o = f.options;
      if (f.remaining <= 0) continue;
      if (o.verb !== undefined && !(typeof o.verb === 'string' ? o.verb === info.verb : o.verb.includes(info.verb))) continue;
      if (o.resource !== undefined && (!info.isResourceRequest || o.resource !== qualifiedResource({ plural: info.resource, group: info.group }))) continue;
      f.remaining--;
      return statusForCode(o.code, o.retryAfterSeconds, o.message);
    }
    return undefined;
  }

  compact(): void {
    this.storage.history.compact(this.storage.resourceVersion);
  }

  stallWatches(): number {
    const all = this.hub.all();
    for (const s of all) s.stall();
    return all.length;
  }

  slowEvents(ms: number): void {
    this.setSlow(ms);
    for (const s of this.hub.all()) s.slowMs = ms;
  }

  malformedLine(): number {
    const all = this.hub.all();
    for (const s of all) s.send('{"type":"MODIFIED","object":{"kind":\n');
    return all.length;
  }

  bookmarkNow(): number {
    const all = this.hub.all();
    for (const s of all) s.sendBookmark();
    return all.length;
  }

  partition(spec: PartitionSpec): number {
    return this.partitions.partition(spec);
  }

  heal(spec?: Pick<PartitionSpec, 'user' | 'userAgent'>): number {
    return this.partitions.heal(spec);
  }

  hungRequests(): number {
    return this.partitions.hungRequests();
  }

  reset(): void {
    this.partitions.heal();
    this.failures.length = 0;
    this.stopDroppingEvents();
    this.slowEvents(0);
  }
}
