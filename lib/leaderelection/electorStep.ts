import type { ElectorTimings } from './leaderElectionConfig.js';
import { leaseDurationSeconds } from './leaderElectionConfig.js';
import type { LeaderElectionRecord, VersionedRecord } from './leaderElectionRecord.js';

/**
 * What an elector last saw of the lock (client-go's observedRecord, observedRawRecord and
 * observedTime, plus the resource version its next update is conditional on). `time` is the
 * elector's OWN clock when the record last changed: expiry is `time + leaseDurationSeconds`.
 *
 * @example
 * ```ts
 * const expired = (o: Observation, now: number) => !o.record || o.time + o.record.leaseDurationSeconds * 1000 <= now;
 * ```
 */
export interface Observation {
  readonly record: LeaderElectionRecord | undefined;
  readonly raw: string;
  readonly time: number;
  readonly resourceVersion: string | undefined;
}

/**
 * The lock call an elector has in flight: the leader's optimistic renewal (`fastUpdate`), a read,
 * a create or update, or the two steps of a release.
 *
 * @example
 * ```ts
 * const busy = (s: ElectorState) => s.phase !== 'stopped' && s.inFlight !== undefined;
 * ```
 */
export type InFlight = 'fastUpdate' | 'get' | 'create' | 'update' | 'releaseGet' | 'release';

/**
 * An elector's state. `candidate`: trying to acquire; `leading`: holding the lease, `renewedAt`
 * (own clock) the start of its last successful attempt; `attemptAt` the start of the attempt in
 * flight; `releasing`: stopped, writing the empty holder before
 * `deadline`; `stopped`: done.
 *
 * @example
 * ```ts
 * const leading = (s: ElectorState): boolean => s.phase === 'leading';
 * ```
 */
export type ElectorState =
  | { readonly phase: 'candidate'; readonly observed: Observation; readonly inFlight: InFlight | undefined; readonly attemptAt?: number }
  | {
      readonly phase: 'leading';
      readonly observed: Observation;
      readonly inFlight: InFlight | undefined;
      readonly attemptAt?: number;
      /** When the last successful attempt STARTED: the term is counted from before the write landed. */
      readonly renewedAt: number;
    }
  | {
      readonly phase: 'releasing';
      readonly observed: Observation;
      readonly inFlight: InFlight;
      readonly deadline: number;
      /** Reads of the Lease so far: a release that loses a race reads again, a bounded number of times. */
      readonly attempts: number;
    }
  | { readonly phase: 'stopped'; readonly observed: Observation };

/**
 * What happens to an elector: its retry timer fired (`tick`), a lock call answered (`got`,
 * `wrote`) or failed (`failed`; `conflict` for a 409), its renew or release deadline passed, or it
 * was asked to stop. `now` is the elector's clock.
 *
 * @example
 * ```ts
 * const input: ElectorInput = { type: 'got', now: scheduler.now(), lease: undefined };
 * ```
 */
export type ElectorInput =
  | { readonly type: 'tick'; readonly now: number }
  | { readonly type: 'got'; readonly now: number; readonly lease: VersionedRecord | undefined }
  | { readonly type: 'wrote'; readonly now: number; readonly lease: VersionedRecord }
  | { readonly type: 'failed'; readonly now: number; readonly conflict: boolean }
  | { readonly type: 'deadline'; readonly now: number }
  | { readonly type: 'stop'; readonly now: number };

/**
 * The one thing to do next: a lock call, a wait before the next attempt (jittered x [1, 2.2) while
 * not leading), or nothing.
 *
 * @example
 * ```ts
 * const isIo = (c: ElectorCommand) => c.type === 'get' || c.type === 'create' || c.type === 'update';
 * ```
 */
export type ElectorCommand =
  | { readonly type: 'get' }
  | { readonly type: 'create'; readonly record: LeaderElectionRecord }
  | { readonly type: 'update'; readonly record: LeaderElectionRecord; readonly resourceVersion: string }
  | { readonly type: 'wait'; readonly ms: number; readonly jitter: boolean }
  | { readonly type: 'none' };

/**
 * A step's result: the next state and the command to run.
 *
 * @example
 * ```ts
 * const { state, command }: ElectorTransition = electorStep(s, { type: 'tick', now }, timings);
 * ```
 */
export interface ElectorTransition {
  readonly state: ElectorState;
  readonly command: ElectorCommand;
}

/**
 * The state of a new elector: a candidate that has seen nothing.
 *
 * @example
 * ```ts
 * let s = initialElectorState(); // then feed { type: 'tick', now } to start
 * ```
 */
export function initialElectorState(): ElectorState {
  return { phase: 'candidate', observed: { record: undefined, raw: '', time: 0, resourceVersion: undefined }, inFlight: undefined };
}

/**
 * The deadline an elector must act by, if any: the end of its renew deadline while leading (its
 * last successful write + renewDeadline), the release deadline while releasing.
 *
 * @example
 * ```ts
 * const at = electorDeadline(state, timings); // schedule a { type: 'deadline' } input at `at`
 * ```
 */
export function electorDeadline(state: ElectorState, t: ElectorTimings): number | undefined {
  if (state.phase === 'leading') return state.renewedAt + t.renewDeadline;
  if (state.phase === 'releasing') return state.deadline;
  return undefined;
}

/** Reads of the Lease a release makes at most (one, plus a re-read after each lost race). */
const MAX_RELEASE_ATTEMPTS = 5;

/**
 * Whether a leader's renew deadline has passed at `now` (its last successful attempt's start plus
 * renewDeadline): from then on it must not act as leader, whether or not a timer has said so.
 *
 * @example
 * ```ts
 * const leading = s.phase === 'leading' && !isPastDeadline(s, scheduler.now(), timings);
 * ```
 */
export function isPastDeadline(s: ElectorState, now: number, t: ElectorTimings): boolean {
  return s.phase === 'leading' && now >= s.renewedAt + t.renewDeadline;
}

const isLeader = (o: Observation, t: ElectorTimings): boolean => o.record?.holderIdentity === t.identity;
const isValid = (o: Observation, now: number): boolean =>
  o.record !== undefined && o.time + o.record.leaseDurationSeconds * 1000 > now;
const observe = (lease: VersionedRecord, now: number): Observation => ({
  record: lease.record,
  raw: lease.raw,
  time: now,
  resourceVersion: lease.resourceVersion,
});

function ownRecord(t: ElectorTimings, now: number, acquireTime: number, leaderTransitions: number): LeaderElectionRecord {
  return { holderIdentity: t.identity, leaseDurationSeconds: leaseDurationSeconds(t.leaseDuration), acquireTime, renewTime: now, leaderTransitions };
}

/** The same phase with another lock call in flight (or none). */
function busy(s: ElectorState, inFlight: InFlight | undefined): ElectorState {
  if (s.phase === 'stopped') return s;
  if (s.phase === 'releasing') return { ...s, inFlight: inFlight ?? s.inFlight };
  return { ...s, inFlight };
}

/** An attempt (client-go's tryAcquireOrRenew): the leader's fast path, else a read. */
function attempt(prev: ElectorState, now: number, t: ElectorTimings): ElectorTransition {
  const s = prev.phase === 'candidate' || prev.phase === 'leading' ? { ...prev, attemptAt: now } : prev;
  const o = s.observed;
  if (o.record && o.resourceVersion !== undefined && isLeader(o, t) && isValid(o, now)) {
    const record = ownRecord(t, now, o.record.acquireTime, o.record.leaderTransitions);
    return { state: busy(s, 'fastUpdate'), command: { type: 'update', record, resourceVersion: o.resourceVersion } };
  }
  return { state: busy(s, 'get'), command: { type: 'get' } };
}

/** The attempt failed: wait and try again (a leader that is past its deadline has lost). */
function retry(s: ElectorState, now: number, t: ElectorTimings): ElectorTransition {
  if (s.phase === 'leading' && now >= s.renewedAt + t.renewDeadline) return lose(s, t);
  const leading = s.phase === 'leading';
  return { state: busy(s, undefined), command: { type: 'wait', ms: t.retryPeriod, jitter: !leading } };
}

/** Leadership lost: back to candidate; what was in flight is abandoned (the driver aborts it). */
function lose(s: ElectorState, t: ElectorTimings): ElectorTransition {
  return { state: { phase: 'candidate', observed: s.observed, inFlight: undefined }, command: { type: 'wait', ms: t.retryPeriod, jitter: true } };
}

function stopped(s: ElectorState, observed = s.observed): ElectorTransition {
  return { state: { phase: 'stopped', observed }, command: { type: 'none' } };
}

/** A read answered: create, take over, renew, or leave it to its holder. */
function got(s: ElectorState, lease: VersionedRecord | undefined, now: number, t: ElectorTimings): ElectorTransition {
  if (s.phase === 'releasing') {
    // Judged on the fresh read: another holder (we were stale) or none means nothing to release.
    if (!lease || lease.record.holderIdentity !== t.identity) return stopped(s);
    const record: LeaderElectionRecord = { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaderTransitions: lease.record.leaderTransitions };
    return { state: busy(s, 'release'), command: { type: 'update', record, resourceVersion: lease.resourceVersion } };
  }
  if (!lease) {
    return { state: busy(s, 'create'), command: { type: 'create', record: ownRecord(t, now, now, 0) } };
  }
  // A change is judged by the record's bytes, and timed by OUR clock when we first saw it.
  const changed = lease.raw !== s.observed.raw;
  const observed: Observation = changed ? observe(lease, now) : { ...s.observed, resourceVersion: lease.resourceVersion };
  const next = { ...s, observed } as ElectorState;
  const holder = lease.record.holderIdentity;
  if (holder !== '' && isValid(observed, now) && !isLeader(observed, t)) return retry(next, now, t);
  const record = isLeader(observed, t)
    ? ownRecord(t, now, lease.record.acquireTime, lease.record.leaderTransitions)
    : ownRecord(t, now, now, lease.record.leaderTransitions + 1);
  return { state: busy(next, 'update'), command: { type: 'update', record, resourceVersion: lease.resourceVersion } };
}

/**
 * One step of client-go's elector as a pure function: the state and an input in, the next state
 * and the one command to run out. The driver ({@link leaderElection}) runs the command against the
 * lock or the scheduler and feeds the outcome back; nothing here does I/O or reads a clock.
 *
 * @example
 * ```ts
 * let { state, command } = electorStep(initialElectorState(), { type: 'tick', now: 0 }, timings);
 * // command: { type: 'get' }; the lock says there is no Lease:
 * ({ state, command } = electorStep(state, { type: 'got', now: 5, lease: undefined }, timings));
 * // command: { type: 'create', record: { holderIdentity: 'a', ... } }
 * ```
 */
export function electorStep(s: ElectorState, input: ElectorInput, t: ElectorTimings): ElectorTransition {
  if (s.phase === 'stopped') return { state: s, command: { type: 'none' } };
  const now = input.now;
  // Whatever comes first after the renew deadline has passed (a paused process runs late timers
  // and answers in any order) ends the term before anything else happens.
  if (s.phase === 'leading' && input.type !== 'stop' && input.type !== 'wrote' && isPastDeadline(s, now, t)) return lose(s, t);
  switch (input.type) {
    case 'tick':
      return s.phase === 'releasing' || s.inFlight !== undefined ? { state: s, command: { type: 'none' } } : attempt(s, now, t);
    case 'got':
      return got(s, input.lease, now, t);
    case 'wrote': {
      const observed = observe(input.lease, now);
      if (s.phase === 'releasing') return stopped(s, observed);
      // The renew deadline runs from when this attempt started, not from when its answer came: the
      // write may have landed (and others started timing from it) any time in between.
      const renewedAt = s.attemptAt ?? now;
      // An answer that comes past that deadline (the process was paused) starts no term: others
      // may already have timed the lease out.
      if (now >= renewedAt + t.renewDeadline) return lose({ ...s, observed }, t);
      return { state: { phase: 'leading', observed, inFlight: undefined, renewedAt }, command: { type: 'wait', ms: t.retryPeriod, jitter: false } };
    }
    case 'failed':
      if (s.phase === 'releasing') {
        // client-go's release re-reads the Lease after a 409 and tries again (within its deadline).
        if (!input.conflict || s.attempts >= MAX_RELEASE_ATTEMPTS) return stopped(s);
        return { state: { ...s, inFlight: 'releaseGet', attempts: s.attempts + 1 }, command: { type: 'get' } };
      }
      // The leader's optimistic renewal failed: fall back to reading the lock (client-go's slow path).
      if (s.inFlight === 'fastUpdate') return { state: busy(s, 'get'), command: { type: 'get' } };
      return retry(s, now, t);
    case 'deadline':
      if (s.phase === 'releasing') return stopped(s);
      if (s.phase === 'leading' && now >= s.renewedAt + t.renewDeadline) return lose(s, t);
      return { state: s, command: { type: 'none' } };
    case 'stop':
      if (t.releaseOnCancel && isLeader(s.observed, t)) {
        return {
          state: { phase: 'releasing', observed: s.observed, inFlight: 'releaseGet', deadline: now + t.renewDeadline, attempts: 1 },
          command: { type: 'get' },
        };
      }
      return stopped(s);
  }
}
