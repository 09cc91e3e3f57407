// Work queue benchmark: the queue's own CPU cost per add, get and done (and per dedup add, delayed
// add, and the Observable get$ path), at 10k and 100k distinct keys, next to a floor: a plain
// Set + array FIFO doing the least any deduplicating queue must do.
//
// Run (imports the TypeScript source through tsx; no build needed):
//   npx tsx bench/workqueue.mjs
// Bounded: fixed counts; about 30 s on a 2-core VM.
//
// Method: each figure is the best (lowest) of 15 runs, after a warm-up run, in CPU ns per operation
// (process.cpuUsage, so other processes on a loaded machine count less); each run uses a fresh queue.
// - add: N distinct keys into an empty queue (priority 0); get: tryGet of all N; done: done of all N.
// - add (dup): N adds of keys already queued (the merge path: no new entry).
// - addAfter: N distinct keys with a 60 s delay (heap push; the timer is armed once, cancelled at
//   shutDown; nothing fires).
// - get$ + done: a synchronous worker taking N keys through get$ (an Observable per key).
// - floor: the same add / get / done on a Set (dedup) + array (FIFO) + Set (in flight).
import { workQueue } from '../lib/workqueue/workQueue.ts';

const SIZES = [10_000, 100_000];
const RUNS = 15;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000; // ns
};
const keysOf = (n) => Array.from({ length: n }, (_, i) => `ns/obj-${i}`);

function measure(n) {
  const keys = keysOf(n);
  const t = { add: [], get: [], done: [], dup: [], addAfter: [], get$: [], floorAdd: [], floorGet: [], floorDone: [] };
  for (let run = 0; run <= RUNS; run++) {
    const q = workQueue({ name: 'bench' });
    let a = cpu();
    for (const k of keys) q.add(k);
    let b = cpu();
    t.add.push((b - a) / n);
    a = cpu();
    for (const k of keys) q.add(k);
    b = cpu();
    t.dup.push((b - a) / n);
    a = cpu();
    for (let i = 0; i < n; i++) q.tryGet();
    b = cpu();
    t.get.push((b - a) / n);
    a = cpu();
    for (const k of keys) q.done(k);
    b = cpu();
    t.done.push((b - a) / n);
    q.shutDown();

    const d = workQueue({ name: 'bench' });
    a = cpu();
    for (const k of keys) d.addAfter(k, 60_000);
    b = cpu();
    t.addAfter.push((b - a) / n);
    d.shutDown();

    const w = workQueue({ name: 'bench' });
    for (const k of keys) w.add(k);
    let seen = 0;
    const next = () => w.get$().subscribe(({ key }) => {
      seen++;
      w.done(key);
      if (seen < n) next();
    });
    a = cpu();
    next();
    b = cpu();
    if (seen !== n) throw new Error(`get$ worker saw ${seen} of ${n}`);
    t.get$.push((b - a) / n);
    w.shutDown();

    // Floor: dedup set + FIFO array + in-flight set.
    const dirty = new Set();
    const fifo = [];
    const inFlight = new Set();
    a = cpu();
    for (const k of keys) if (!dirty.has(k)) { dirty.add(k); fifo.push(k); }
    b = cpu();
    t.floorAdd.push((b - a) / n);
    a = cpu();
    for (let i = 0; i < n; i++) { const k = fifo[i]; dirty.delete(k); inFlight.add(k); }
    b = cpu();
    t.floorGet.push((b - a) / n);
    a = cpu();
    for (const k of keys) inFlight.delete(k);
    b = cpu();
    t.floorDone.push((b - a) / n);
  }
  const best = (xs) => Math.min(...xs.slice(1)); // drop the warm-up run
  return Object.fromEntries(Object.entries(t).map(([k, xs]) => [k, best(xs)]));
}

console.log(`node ${process.version}, ${RUNS} runs each, best CPU ns per operation`);
console.log('keys     add   get  done  add(dup) addAfter get$+done | floor add get done');
for (const n of SIZES) {
  const r = measure(n);
  const f = (x) => x.toFixed(0).padStart(5);
  console.log(
    `${String(n).padEnd(7)} ${f(r.add)} ${f(r.get)} ${f(r.done)} ${f(r.dup)}    ${f(r.addAfter)}    ${f(r.get$)}   |    ${f(r.floorAdd)} ${f(r.floorGet)} ${f(r.floorDone)}`,
  );
}
