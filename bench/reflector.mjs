#!/usr/bin/env node
// The reflector alone on its watch hot path: a ListWatch that lists at once and then hands over
// B bursts of E MODIFIED events each, synchronously, to the reflector; CPU µs per event (median and
// minimum of the runs, after warm-up runs). E = 1 shows the per-burst cost, E = 200 about what a
// 64 KB chunk of small pods carries. Compare two builds with RXKUBE_MODULE.
//
// usage (from the repo root, after `npm run build`):
//   node bench/reflector.mjs [E=50] [B=4000] [--runs 15]
//   RXKUBE_MODULE=path/to/index.js node bench/reflector.mjs 1
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Observable, of } from 'rxjs';
import { benchArgs } from './args.mjs';

const rx = await import(
  process.env.RXKUBE_MODULE ? pathToFileURL(resolve(process.env.RXKUBE_MODULE)).href : new URL('../dist/esm/index.js', import.meta.url).href
);
const args = benchArgs(process.argv.slice(2));
const RUNS = Number(args.option('runs', '15'));
const [E = 50, B = 4000] = args.rest.slice(0, 2).map(Number);

const objects = Array.from({ length: B * E }, (_, i) => ({
  metadata: { name: `p${i % 1000}`, namespace: 'ns', resourceVersion: String(100 + i) },
}));
const bursts = Array.from({ length: B }, (_, b) =>
  objects.slice(b * E, (b + 1) * E).map((object) => ({ type: 'MODIFIED', object })),
);
const lw = {
  list: () => of({ items: [], resourceVersion: '100', continue: '' }),
  watch: () => {
    throw new Error('watchBursts is used');
  },
  watchBursts: () =>
    new Observable((subscriber) => {
      for (const burst of bursts) subscriber.next(burst);
    }),
};

function once() {
  let events = -1; // the list's replace
  const start = process.cpuUsage();
  const sub = rx.reflector(lw, { random: () => 0 }).outputs$.subscribe((out) => {
    if (out.type === 'events') events += out.events.length;
  });
  const used = process.cpuUsage(start);
  sub.unsubscribe();
  if (events !== B * E) throw new Error(`expected ${B * E} events, got ${events}`);
  return (used.user + used.system) / events;
}

for (let i = 0; i < 5; i++) once();
const runs = Array.from({ length: RUNS }, once).sort((a, b) => a - b);
console.log(
  JSON.stringify({
    E,
    B,
    runs: RUNS,
    cpuUsPerEvent: +runs[Math.floor(RUNS / 2)].toFixed(3),
    minCpuUsPerEvent: +runs[0].toFixed(3),
  }),
);
