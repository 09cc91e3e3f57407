/**
 * Throughput of the delta FIFO on small objects (not a test: run it by hand).
 *   npx tsx spec/fifo/deltaFifo.bench.ts
 */
import { lastValueFrom, Observable, reduce } from 'rxjs';
import { createFifoQueue } from '../../lib/fifo/createFifoQueue.js';
import { deltaFifo } from '../../lib/fifo/deltaFifo.js';
import type { FifoMode } from '../../lib/fifo/fifoQueue.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import type { ReflectorEvent } from '../../lib/reflector/reflectorEvent.js';

const N = 1_000_000;
const KEYS = 10_000;
const pod = (i: number, rv: number): KubeObject => ({
  metadata: { namespace: 'default', name: `pod-${i % KEYS}`, resourceVersion: String(rv) },
});
const events: ReflectorEvent<KubeObject>[] = [];
for (let i = 0; i < N; i++)
  events.push(i < KEYS ? { type: 'add', object: pod(i, i) } : { type: 'update', object: pod(i, i) });

const rate = (n: number, ms: number) => `${Math.round(n / (ms / 1000)).toLocaleString('en')} events/s`;

async function operator(mode: FifoMode, chunk: number): Promise<void> {
  // The source emits in chunks of `chunk` events per macrotask, as a watch stream delivers them.
  const source = new Observable<ReflectorEvent<KubeObject>>((sub) => {
    let i = 0;
    const next = (): void => {
      const end = Math.min(i + chunk, N);
      for (; i < end; i++) sub.next(events[i]);
      if (i < N) setImmediate(next);
      else sub.complete();
    };
    next();
  });
  const t0 = performance.now();
  const deltas = await lastValueFrom(
    source.pipe(
      deltaFifo<KubeObject>({ mode }),
      reduce((n, o) => n + (o.type === 'pop' ? o.deltas.length : 0), 0),
    ),
  );
  const ms = performance.now() - t0;
  console.log(
    `operator ${mode.padEnd(10)} chunk ${String(chunk).padStart(6)}: ${rate(N, ms)} (${deltas} deltas out)`,
  );
}

function queueOnly(mode: FifoMode): void {
  const q = createFifoQueue<KubeObject>({ mode });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    q.apply(events[i]);
    if (i % 100 === 0) while (q.pop() !== undefined);
  }
  while (q.pop() !== undefined);
  console.log(`queue    ${mode.padEnd(10)}              : ${rate(N, performance.now() - t0)}`);
}

function replace(mode: FifoMode): void {
  const items = Array.from({ length: 100_000 }, (_, i) => pod(i, i));
  const q = createFifoQueue<KubeObject>({ mode });
  const t0 = performance.now();
  q.replace(items, '1');
  while (q.pop() !== undefined);
  console.log(`replace  ${mode.padEnd(10)} 100k items  : ${rate(items.length, performance.now() - t0)}`);
}

for (const mode of ['coalescing', 'ordered'] as const) {
  queueOnly(mode);
  replace(mode);
  await operator(mode, 100);
  await operator(mode, N);
}
