// The fake API server in a worker thread (its own event loop, as a real API server is another
// process), for the bench scripts that measure a client against it (churn.mjs, controller.mjs,
// failover.mjs): one copy of starting the thread, asking it something, and closing it.
//
// In the script's worker branch:
//   const api = await startFakeApiServer(...);
//   serveInThread(api, parentPort, async (m) => { if (m.create) ... });   // { close } is handled here
//   parentPort.postMessage({ kubeConfig: api.kubeConfigText() });
// In its main branch:
//   const { worker, kc } = await startServerThread(new URL(import.meta.url));
//   const { created } = await ask(worker, { create: 10 }, 'created');
//   await stopServerThread(worker);
import { Worker } from 'node:worker_threads';

/**
 * Worker side: hands every message but `{ close: true }` to `onMessage`; on close, closes the
 * server, answers `{ closed: true }` and closes the port (the thread then exits).
 */
export function serveInThread(api, port, onMessage) {
  port.on('message', async (m) => {
    if (m.close) {
      await api.close();
      port.postMessage({ closed: true });
      port.close();
      return;
    }
    await onMessage(m);
  });
}

/**
 * Worker side: writes n ConfigMaps `cm-0`.. `cm-{n-1}` in namespace `bench` at once (with `labels`,
 * if given), the objects the controller and failover benches reconcile.
 */
export function writeConfigMaps(api, n, labels) {
  const objects = Array.from({ length: n }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}`, namespace: 'bench', ...(labels ? { labels } : {}) },
    data: { index: String(i) },
  }));
  api.writeMany('configmaps', objects);
}

/**
 * Main side: a fresh server thread running `url` (the script itself); posts `first` if given, and
 * resolves with the worker and a KubeConfig once the thread sends `{ kubeConfig }`.
 */
export async function startServerThread(url, first) {
  const { KubeConfig } = await import('@kubernetes/client-node');
  return new Promise((resolve, reject) => {
    const worker = new Worker(url);
    worker.once('error', reject);
    const on = (m) => {
      if (m.kubeConfig === undefined) return;
      worker.off('message', on);
      const kc = new KubeConfig();
      kc.loadFromString(m.kubeConfig);
      resolve({ worker, kc });
    };
    worker.on('message', on);
    if (first !== undefined) worker.postMessage(first);
  });
}

/** Main side: posts `message` and resolves with the first answer that has an `answer` field. */
export function ask(worker, message, answer) {
  return new Promise((resolve) => {
    const on = (m) => {
      if (m[answer] === undefined) return;
      worker.off('message', on);
      resolve(m);
    };
    worker.on('message', on);
    worker.postMessage(message);
  });
}

/** Main side: closes the server and resolves once its thread has exited. */
export function stopServerThread(worker) {
  return new Promise((resolve) => {
    worker.once('exit', resolve);
    worker.postMessage({ close: true });
  });
}
