// The main thread's own clocks, from Linux's /proc/self/task/<tid>/schedstat (nanoseconds): the
// CPU time it ran, and the time it was ready to run but waited for a core (the run queue). On a
// machine shared with other work, wall time mixes the code's cost with everyone else's load; the
// CPU time is the code's cost, and the run-queue time says how much the load added.
// The main thread's tid is the process id. Elsewhere (no /proc), both read as undefined.
//
//   const t0 = threadClock();
//   ... work ...
//   const { cpuMs, runQueueMs } = threadClockSince(t0);
import { readFileSync } from 'node:fs';

const path = `/proc/self/task/${process.pid}/schedstat`;

/** Now: { cpuNs, runQueueNs } of the main thread, or undefined where schedstat is not available. */
export function threadClock() {
  try {
    const [cpu, wait] = readFileSync(path, 'utf8').trim().split(/\s+/).map(Number);
    return { cpuNs: cpu, runQueueNs: wait };
  } catch {
    return undefined;
  }
}

/** Milliseconds of CPU and of run-queue wait of the main thread since `start` (from threadClock()). */
export function threadClockSince(start) {
  const now = threadClock();
  if (start === undefined || now === undefined) return { cpuMs: undefined, runQueueMs: undefined };
  return { cpuMs: (now.cpuNs - start.cpuNs) / 1e6, runQueueMs: (now.runQueueNs - start.runQueueNs) / 1e6 };
}
