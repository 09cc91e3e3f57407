// The default limiter's shared bucket, watched (issue 28: "say how the shared bucket behaves, and
// measure it in the churn scenario"). The limiter is built as defaultControllerRateLimiter() is
// (the longer of a per-key exponential backoff from 5 ms and one token bucket of 10/s, burst 100,
// shared by every key), with the bucket wrapped to count the tokens taken by cause and how short
// of tokens it ran. A probe key fails for an unrelated reason (as a webhook that is down would)
// once a second, and its retry is timed: how long a key that has nothing to do with the conflicts
// waits for its first retry.
//
//   const bucket = sharedBucket(rx, scheduler);
//   controller({ ..., rateLimiter: bucket.rateLimiter, reconcile: (key) => {
//     if (key === bucket.probeKey) return bucket.probe();        // throws, then succeeds on the retry
//     try { ... } catch (e) { bucket.failed(key, 'conflict'); throw e; }
//   } });
//   const stop = bucket.startProbing(ctl.queue);                  // once a second, while running
//   ... stop(); bucket.report();

/** A rate limiter like the default one, counting the shared bucket's tokens, and a probe key. */
export function sharedBucket(rx, { probeKey = 'probe/unrelated-failure', probeEveryMs = 1000 } = {}) {
  const bucket = rx.bucketRateLimiter({ qps: 10, burst: 100 });
  const cause = new Map(); // key -> why its last reconcile failed: 'conflict' | 'other'
  const tokens = { conflict: 0, other: 0 };
  let mostShortMs = 0; // the longest delay the bucket imposed (its debt / qps)
  const probeLimiterMs = []; // the probe's delay as the limiter gave it
  const probeWaitMs = []; // from the probe's failure to its retry starting, measured
  let failedAt; // performance.now() of the probe's pending failure
  const counted = {
    when(key, nowMs) {
      const ms = bucket.when(key, nowMs);
      tokens[cause.get(key) === 'conflict' ? 'conflict' : 'other']++;
      mostShortMs = Math.max(mostShortMs, ms);
      if (key === probeKey) probeLimiterMs.push(ms);
      return ms;
    },
    forget: (key) => bucket.forget(key),
    numRequeues: (key) => bucket.numRequeues(key),
  };
  const rateLimiter = rx.maxOfRateLimiter(rx.itemExponentialFailureRateLimiter({ baseMs: 5, maxMs: 1_000_000 }), counted);
  return {
    probeKey,
    rateLimiter,
    /** Tells why `key`'s reconcile is about to fail (before it throws). */
    failed(key, why) {
      cause.set(key, why);
    },
    /** The probe's reconcile: fails (for an unrelated reason) when none is pending, else times its retry. */
    probe() {
      if (failedAt === undefined) {
        failedAt = performance.now();
        cause.set(probeKey, 'other');
        throw new Error('probe: unrelated failure');
      }
      probeWaitMs.push(performance.now() - failedAt);
      failedAt = undefined;
    },
    /** Queues the probe key every `probeEveryMs` while no failure of it is pending; returns a stop function. */
    startProbing(queue) {
      const timer = setInterval(() => {
        if (failedAt === undefined) queue.add(probeKey);
      }, probeEveryMs);
      return () => clearInterval(timer);
    },
    /** Resolves once no failure of the probe is pending (its retry has run), or after `limitMs`. */
    async retried(limitMs) {
      const by = performance.now() + limitMs;
      while (failedAt !== undefined && performance.now() < by) await new Promise((r) => setTimeout(r, 50));
    },
    /** The figures: tokens by cause, the bucket's longest delay, the probe's waits. */
    report(pct, round) {
      return {
        tokensByConflicts: tokens.conflict,
        tokensByOther: tokens.other,
        bucketLongestDelayMs: round(mostShortMs),
        probeRetries: probeWaitMs.length,
        probeFailures: probeLimiterMs.length,
        probeLimiterDelayP50Ms: round(pct(probeLimiterMs, 0.5)),
        probeLimiterDelayMaxMs: round(pct(probeLimiterMs, 1)),
        probeWaitP50Ms: round(pct(probeWaitMs, 0.5)),
        probeWaitMaxMs: round(pct(probeWaitMs, 1)),
        // A failure whose retry had not run when the run ended (after `retried`): how long it had waited.
        probeStillWaitingMs: failedAt === undefined ? 0 : round(performance.now() - failedAt),
      };
    },
  };
}
