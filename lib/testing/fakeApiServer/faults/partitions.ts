import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Which clients a partition cuts off, and how: `'hang'` (the server reads the request and never
 * answers, as behind a black-holing network) or `'reset'` (the connection is destroyed at once, as
 * on a TCP reset). A client is picked by the user its bearer token authenticates as, or by its
 * `User-Agent` header; at least one of the two must be set.
 *
 * @example
 * ```ts
 * api.faults.partition({ user: 'elector-a', mode: 'hang' });
 * // ... later
 * api.faults.heal({ user: 'elector-a' });
 * ```
 */
export interface PartitionSpec {
  /** The authenticated user (a {@link FakeToken}'s `user`, or the token itself). */
  readonly user?: string;
  /** The exact `User-Agent` header. */
  readonly userAgent?: string;
  /** Default `'hang'`. */
  readonly mode?: 'hang' | 'reset';
}

/** A request from a partitioned client: who sent it, for matching. */
interface Sender {
  readonly user: string | undefined;
  readonly userAgent: string | undefined;
}

const matches = (spec: PartitionSpec, s: Sender): boolean =>
  (spec.user === undefined || spec.user === s.user) && (spec.userAgent === undefined || spec.userAgent === s.userAgent);

/**
 * The partitions of one fake API server (used through `api.faults.partition` / `heal`). A hung request is held until the partition heals or the
 * server closes; then its connection is destroyed (the client sees a reset, never a late answer, so
 * nothing it wrote while cut off lands after the heal).
 *
 * @example
 * ```ts
 * const partitions = new Partitions();
 * partitions.partition({ user: 'elector-a', mode: 'reset' });
 * ```
 */
export class Partitions {
  private specs: PartitionSpec[] = [];
  private readonly hung = new Set<{ readonly sender: Sender; readonly res: ServerResponse }>();

  /** Cuts off the clients `spec` picks (from their next request on); returns the partitions in force. */
  partition(spec: PartitionSpec): number {
    if (spec.user === undefined && spec.userAgent === undefined) {
      throw new TypeError('partition: set user or userAgent, or every client would be cut off');
    }
    this.specs.push(spec);
    return this.specs.length;
  }

  /** Heals the partitions `spec` names (all with no argument); returns how many hung requests were reset. */
  heal(spec?: Pick<PartitionSpec, 'user' | 'userAgent'>): number {
    const same = (p: PartitionSpec) => spec === undefined || (p.user === spec.user && p.userAgent === spec.userAgent);
    this.specs = this.specs.filter((p) => !same(p));
    let reset = 0;
    for (const h of [...this.hung]) {
      if (this.specs.some((p) => matches(p, h.sender))) continue;
      this.hung.delete(h);
      h.res.destroy();
      reset++;
    }
    return reset;
  }

  /** How many requests are held by a `'hang'` partition now. */
  hungRequests(): number {
    return this.hung.size;
  }

  /**
   * Applies a partition to a request, if one picks its sender: true when the request was taken
   * (held or reset) and must not be served.
   */
  intercept(req: IncomingMessage, res: ServerResponse, user: string | undefined): boolean {
    const sender: Sender = { user, userAgent: req.headers['user-agent'] };
    const spec = this.specs.find((p) => matches(p, sender));
    if (!spec) return false;
    if (spec.mode === 'reset') {
      req.socket.destroy();
      return true;
    }
    const held = { sender, res };
    this.hung.add(held);
    res.on('close', () => this.hung.delete(held));
    return true;
  }
}
