// The main thread's own clocks, from Linux's /proc/self/task/<tid>/schedstat (nanoseconds): the
// CPU time it ran, and the time it was ready to run but waited for a core (the run queue). On a
// machine shared with other work, wall time mixes the code's cost with everyone else's load; the
// CPU time is the code's cost, and the run-queue time says how much the load added.
// The main thread's tid is the process id. Elsewhere (no /proc), both read as undefined.
//
//   const t0 = threadClock();
//   ... work ...
//   const { cpuMs, runQueueMs, otherCpuMs, otherRunQueueMs } = threadClockSince(t0);
import { readFileSync, readdirSync } from 'node:fs';

const schedstat = (tid) => readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);

/**
 * Now: { cpuNs, runQueueNs } of the main thread, and { otherCpuNs, otherRunQueueNs } summed over
 * the process's other threads (the server's worker thread, V8's GC helpers, libuv's pool), or
 * undefined where schedstat is not available. Threads that ended between two reads are not counted.
 */
export function threadClock() {
  try {
    const [cpuNs, runQueueNs] = schedstat(process.pid);
    let otherCpuNs = 0;
    let otherRunQueueNs = 0;
    const others = new Map();
    for (const tid of readdirSync('/proc/self/task')) {
      if (Number(tid) === process.pid) continue;
      try {
        const [c, w] = schedstat(tid);
        others.set(tid, [c, w]);
        otherCpuNs += c;
        otherRunQueueNs += w;
      } catch {
        // ended meanwhile
      }
    }
    return { cpuNs, runQueueNs, otherCpuNs, otherRunQueueNs, others };
  } catch {
    return undefined;
  }
}

/**
 * Milliseconds since `start` (from threadClock()): the main thread's CPU and run-queue wait, and
 * those of the threads that lived through both reads (the server thread among them).
 */
export function threadClockSince(start) {
  const now = threadClock();
  if (start === undefined || now === undefined) return { cpuMs: undefined, runQueueMs: undefined };
  let otherCpuNs = 0;
  let otherRunQueueNs = 0;
  for (const [tid, [c, w]] of now.others) {
    const before = start.others.get(tid) ?? [0, 0];
    otherCpuNs += c - before[0];
    otherRunQueueNs += w - before[1];
  }
  return {
    cpuMs: (now.cpuNs - start.cpuNs) / 1e6,
    runQueueMs: (now.runQueueNs - start.runQueueNs) / 1e6,
    otherCpuMs: otherCpuNs / 1e6,
    otherRunQueueMs: otherRunQueueNs / 1e6,
  };
}
