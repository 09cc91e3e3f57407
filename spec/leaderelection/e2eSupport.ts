import { leaderElection, type LeaderElector } from '../../lib/leaderelection/leaderElection.js';
import type { LeaderElectionConfig } from '../../lib/leaderelection/leaderElectionConfig.js';
import { leaseLock } from '../../lib/leaderelection/leaseLock.js';
import type { RxkubeError } from '../../lib/errors.js';
import { DEFAULT_TOKEN, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { clientNodeTransport, type ClientNodeTransport } from '../../lib/transport/clientNode.js';
import { waitFor as waitForIt } from '../support/waitFor.js';

/** Short real-time timings for loopback tests (2 s written as leaseDurationSeconds 2). */
export const timings = { leaseDuration: 2_000, renewDeadline: 1_200, retryPeriod: 300 } as const;

/** A fake API server that knows one token per identity (user = identity), so a test can partition one. */
export function startLeaseServer(identities: ReadonlyArray<string>, seed = 1): Promise<FakeApiServer> {
  return startFakeApiServer({
    seed,
    tokens: [{ token: DEFAULT_TOKEN, user: 'admin' }, ...identities.map((id) => ({ token: `token-${id}`, user: id }))],
  });
}

/** Polls `cond` every 5 ms until true; fails after `timeoutMs` with `what`. */
export function waitFor(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  return waitForIt(cond, what, timeoutMs);
}

/** Who led when, as the electors themselves saw it, checked on every start: never two at once. */
export class TermLog {
  readonly terms: { identity: string; start: number; end: number | undefined }[] = [];
  readonly violations: string[] = [];

  started(identity: string): void {
    const open = this.terms.filter((t) => t.end === undefined && t.identity !== identity);
    if (open.length) this.violations.push(`${identity} started leading at ${performance.now().toFixed(0)} while ${open.map((t) => t.identity).join(', ')} still led`);
    this.terms.push({ identity, start: performance.now(), end: undefined });
  }

  stopped(identity: string): void {
    const t = this.terms.find((x) => x.identity === identity && x.end === undefined);
    if (t) t.end = performance.now();
  }
}

export interface HttpElector {
  readonly elector: LeaderElector;
  readonly errors: RxkubeError[];
  /** Stops the elector and closes its connections. */
  close(): Promise<void>;
}

/** An elector for `identity` talking to the fake server through the client-node transport, with its own token. */
export function httpElector(api: FakeApiServer, identity: string, log?: TermLog, extra: Partial<LeaderElectionConfig> = {}, leaseName = 'ha-test'): HttpElector {
  const transport: ClientNodeTransport = clientNodeTransport(api.kubeConfig({ token: `token-${identity}` }));
  const elector = leaderElection({
    lock: leaseLock(transport, 'default', leaseName),
    identity,
    ...timings,
    onStartedLeading: () => log?.started(identity),
    onStoppedLeading: () => log?.stopped(identity),
    ...extra,
  });
  const errors: RxkubeError[] = [];
  elector.errors$.subscribe((e) => errors.push(e));
  return {
    elector,
    errors,
    close: async () => {
      await elector.stop();
      transport.destroy();
    },
  };
}
