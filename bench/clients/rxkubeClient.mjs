// The rxkube side of the reference workload (../shared/bench): an informer over pods through the
// client-node transport, with `handlers` handlers counting adds and updates. Builds the default
// export of a client module as ../shared/bench/README.md defines it:
//   async ({url, N, M}) => ({syncMs, watchMs, heapAfterSync})
// syncMs: start to the N-th add delivered (the store is written before any handler hears, so it
// holds N objects then); watchMs: from then to the M-th update delivered to every handler;
// heapAfterSync: heapUsed after a gc at sync (BENCH_HEAP_SNAPSHOT=file also writes a heap snapshot then).
// rxkube comes from dist/ (run `npm run build`); RXKUBE_MODULE=path points elsewhere (e.g. a .ts
// entry under `node --import tsx`, to measure a change before it is built).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeHeapSnapshot } from 'node:v8';

const moduleUrl = process.env.RXKUBE_MODULE
  ? pathToFileURL(resolve(process.env.RXKUBE_MODULE)).href
  : new URL('../../dist/esm/index.js', import.meta.url).href;
/** The rxkube module the clients measure. */
export const rx = await import(moduleUrl);

const pods = { group: '', version: 'v1', plural: 'pods', namespaced: true };

/**
 * @param {{ handlers?: number, transform?: (o: object) => object, freeze?: boolean, transport?: 'client-node' | 'fetch', metadataOnly?: boolean }} options
 * metadataOnly: the informer over `metadataListWatch` (PartialObjectMetadata; the reference server
 * answers it when run with BENCH_METADATA=1).
 * freeze: the informer's opt-in mutation detection (`freeze: true`), to measure what it costs.
 * transport: `client-node` (default) is `clientNodeTransport(kubeConfig)`, what a Node program
 * uses; `fetch` is rxkube's `fetchTransport`, which does not load @kubernetes/client-node (whose
 * modules alone hold about 27 MB of heap), to measure the informer's own memory.
 */
export async function rxkubeClient({ handlers = 1, transform, freeze = false, transport: kind = 'client-node', metadataOnly = false } = {}) {
  // Loaded here, before the run starts, so that loading it is in no figure.
  const { KubeConfig } = kind === 'fetch' ? {} : await import('@kubernetes/client-node');
  return async function ({ url, N, M }) {
    let transport;
    if (kind === 'fetch') {
      transport = rx.fetchTransport({ baseUrl: url, headers: { Authorization: 'Bearer t' } });
    } else {
      const kc = new KubeConfig();
      kc.loadFromOptions({
        clusters: [{ name: 'c', server: url, skipTLSVerify: true }],
        users: [{ name: 'u', token: 't' }],
        contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
        currentContext: 'x',
      });
      transport = rx.clientNodeTransport(kc);
    }
    const lw = metadataOnly ? rx.metadataListWatch(transport, pods) : rx.listWatch(transport, pods);
    const inf = rx.informer(lw, { ...(transform ? { transform } : {}), ...(freeze ? { freeze } : {}) });
    inf.errors$.subscribe((e) => console.error('informer error', e?.message));
    let syncedAt = 0;
    let lastAt = 0;
    let handlersDone = 0;
    let onSynced, onDone;
    const synced = new Promise((r) => (onSynced = r));
    const done = new Promise((r) => (onDone = r));
    for (let h = 0; h < handlers; h++) {
      let adds = 0;
      let updates = 0;
      inf.addEventHandler({
        add: () => {
          if (++adds === N && h === handlers - 1) onSynced(performance.now());
        },
        update: () => {
          if (++updates === M && ++handlersDone === handlers) onDone(performance.now());
        },
      });
    }
    const t0 = performance.now();
    inf.start();
    syncedAt = await synced;
    const syncMs = syncedAt - t0;
    global.gc?.();
    const heapAfterSync = process.memoryUsage().heapUsed;
    // BENCH_HEAP_SNAPSHOT=file: the heap at that moment, for bench/heapSummary.mjs.
    if (process.env.BENCH_HEAP_SNAPSHOT) writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT);
    const t1 = performance.now();
    lastAt = await done;
    await inf.stop();
    transport.destroy?.();
    return { syncMs, watchMs: lastAt - t1, heapAfterSync };
  };
}
