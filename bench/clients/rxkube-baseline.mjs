// No informer: the heap of a client process that has loaded rxkube and @kubernetes/client-node
// (and made a KubeConfig) but holds no objects, as a client module of ../shared/bench. Its
// heapAfterSync is the baseline the other clients' heaps are compared above (bench/metadata.mjs).
import { rx } from './rxkubeClient.mjs';
const { KubeConfig } = await import('@kubernetes/client-node');
export default async function () {
  const kc = new KubeConfig();
  kc.loadFromOptions({ clusters: [{ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true }], users: [{ name: 'u', token: 't' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x' });
  rx.clientNodeTransport(kc);
  global.gc?.();
  return { syncMs: 1, watchMs: 1, heapAfterSync: process.memoryUsage().heapUsed };
}
