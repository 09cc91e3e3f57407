// The specs' own pod builders (not a spec file). A Pod valid for the fake server is rxkube/testing's
// `podFixture`; these are the smaller shapes the store, reflector and controller specs script.
import type { KubeObject, ObjectMeta } from '../../lib/meta/kubeObject.js';

/**
 * A pod as a store keys it, and nothing more: `{ metadata: { namespace, name, resourceVersion } }`.
 *
 * @example
 * ```ts
 * createStore<KubeObject>().add(storedPod('a', 'x', '1'));
 * ```
 */
export function storedPod(namespace: string, name: string, resourceVersion: string): KubeObject {
  return { metadata: { namespace, name, resourceVersion } };
}

/**
 * A stored pod scheduled on `nodeName`, for specs with a by-node index.
 *
 * @example
 * ```ts
 * writer.add(podOnNode('a', 'x', 'n2', '5')); // indexed under n2 by (p) => [p.spec.nodeName]
 * ```
 */
export function podOnNode(
  namespace: string,
  name: string,
  nodeName = 'n1',
  resourceVersion = '1',
): KubeObject & { spec: { nodeName: string } } {
  return { metadata: { namespace, name, resourceVersion }, spec: { nodeName } };
}

/** The pods {@link listedPod} builds: typed, in namespace `ns`, at a resource version. */
export type ListedPod<M extends Partial<ObjectMeta> = Record<never, never>> = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; resourceVersion: string } & M;
};

/**
 * A pod as a scripted list or watch delivers it: apiVersion/kind, namespace `ns`, a resource
 * version, plus the `metadata` fields given (uid, labels, ownerReferences).
 *
 * @example
 * ```ts
 * listedPod('a', '5');                                  // { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', namespace: 'ns', resourceVersion: '5' } }
 * listedPod('a', '5', { uid: 'uid-a', labels: { app: 'web' } });
 * ```
 */
export function listedPod<M extends Partial<ObjectMeta> = Record<never, never>>(
  name: string,
  resourceVersion: string,
  metadata?: M,
): ListedPod<NoInfer<M>> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ns', resourceVersion, ...metadata } as ListedPod<NoInfer<M>>['metadata'],
  };
}
