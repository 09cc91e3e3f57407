// The objects and indexes of the store benchmarks (store.mjs, store-chain.mjs).

/** The second index of every benchmark store (the default `namespace` one is the first). */
export const indexers = { byNode: (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []) };

/** A small pod-like object: pod `i` at resource version `rv`, in one of 50 namespaces and 20 nodes. */
export function smallPod(i, rv) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `web-${i}`,
      namespace: `ns-${i % 50}`,
      uid: `uid-${i}`,
      resourceVersion: String(rv),
      labels: { app: 'web', tier: i % 3 ? 'frontend' : 'backend', shard: String(i % 16) },
    },
    spec: { nodeName: `node-${i % 20}` },
    status: { phase: 'Running' },
  };
}
