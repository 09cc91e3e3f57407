// Wraps another client module of ../shared/bench and reports the CPU time (user + system) of this
// process for the sync phase and the watch phase, on stderr, as one line
//   CPU-METER {"syncCpuMs":..,"watchCpuMs":..}
// On a shared, loaded machine wall-clock throughput swings with the neighbours; CPU time per event
// swings much less. The phases are split at the client's own `global.gc()` call, which every client
// of the reference workload makes right after sync.
// The inner client comes from CPU_METER_INNER: a module path, or a built-in name of ../shared/bench.
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const shared = resolve(process.env.SHARED_BENCH ?? resolve(here, '../../../shared/bench'));
const inner = process.env.CPU_METER_INNER ?? '';
const builtin = ['client-node', 'http-floor', 'parse-only'];
const innerUrl = builtin.includes(inner) ? pathToFileURL(resolve(shared, 'clients', `${inner}.mjs`)).href : pathToFileURL(resolve(inner)).href;
const mod = await import(innerUrl);

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export default async function (args) {
  const realGc = global.gc;
  let syncMark;
  global.gc = (...a) => {
    const r = realGc?.(...a);
    syncMark ??= cpuMs(); // the first gc is the one at sync
    return r;
  };
  const start = cpuMs();
  try {
    const result = await mod.default(args);
    const end = cpuMs();
    syncMark ??= end;
    process.stderr.write(`CPU-METER ${JSON.stringify({ syncCpuMs: Math.round(syncMark - start), watchCpuMs: Math.round(end - syncMark) })}\n`);
    return result;
  } finally {
    global.gc = realGc;
  }
}
