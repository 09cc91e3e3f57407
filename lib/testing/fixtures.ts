import type { V1Deployment, V1OwnerReference, V1Pod, V1ReplicaSet } from '@kubernetes/client-node';
import type { FakeApiServer, Stored } from './fakeApiServer/server.js';

// The fake API server runs no controllers: nothing turns a Deployment into a ReplicaSet and Pods.
// These builders write what the deployment and replicaset controllers would: the same labels down
// the chain (plus `pod-template-hash`), and ownerReferences with the owner's uid, controller: true.

/**
 * Options of {@link podFixture}. Fields left out are left out of the Pod (no empty `labels`).
 *
 * @example
 * ```ts
 * const options: PodFixtureOptions = { name: 'web-0', namespace: 'shop', labels: { app: 'web' }, nodeName: 'node-1' };
 * ```
 */
export interface PodFixtureOptions {
  readonly name: string;
  /** Default `default`. */
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  /** Set it where no server assigns one, e.g. in a scripted list or watch. */
  readonly resourceVersion?: string;
  readonly uid?: string;
  readonly ownerReferences?: ReadonlyArray<V1OwnerReference>;
  /** `spec.nodeName`: the pod as scheduled. */
  readonly nodeName?: string;
  /** The image of its one container (named `c`); default `nginx`. */
  readonly image?: string;
  /** `status.phase`, e.g. `Running`. A plain create on the fake server drops the status (use `withStatus`). */
  readonly phase?: string;
}

/**
 * A Pod that passes the fake server's validation: apiVersion, kind, name, namespace and one
 * container, plus what `options` adds. For a test's own objects, where a Deployment chain
 * ({@link createDeploymentChain}) would be more than the test needs.
 *
 * @example
 * ```ts
 * api.create('pods', podFixture({ name: 'web-0', namespace: 'shop', labels: { app: 'web' } }));
 * const listed = podFixture({ name: 'web-0', resourceVersion: '7', phase: 'Pending' }); // for a fakeListWatch page
 * ```
 */
export function podFixture(options: PodFixtureOptions): V1Pod {
  const { name, namespace = 'default', labels, resourceVersion, uid, ownerReferences, nodeName, image = 'nginx', phase } = options;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      ...(labels ? { labels: { ...labels } } : {}),
      ...(resourceVersion !== undefined ? { resourceVersion } : {}),
      ...(uid !== undefined ? { uid } : {}),
      ...(ownerReferences ? { ownerReferences: [...ownerReferences] } : {}),
    },
    spec: { ...(nodeName !== undefined ? { nodeName } : {}), containers: [{ name: 'c', image }] },
    ...(phase !== undefined ? { status: { phase } } : {}),
  };
}

/**
 * Options of {@link deploymentFixture} and {@link createDeploymentChain}.
 *
 * @example
 * ```ts
 * const options: DeploymentChainOptions = { name: 'web', namespace: 'shop', replicas: 3, labels: { app: 'web' } };
 * ```
 */
export interface DeploymentChainOptions {
  readonly name: string;
  /** Default `default`. */
  readonly namespace?: string;
  /** Pods of the ReplicaSet; default 1. */
  readonly replicas?: number;
  /** The selector and the pod template's labels; default `{ app: name }`. */
  readonly labels?: Readonly<Record<string, string>>;
  /** The container image; default `nginx:1.27`. */
  readonly image?: string;
}

/**
 * A Deployment, as you would apply it: selector and template labels from `labels`.
 *
 * @example
 * ```ts
 * const d = api.create('deployments.apps', deploymentFixture({ name: 'web', namespace: 'shop', replicas: 2 }));
 * ```
 */
export function deploymentFixture(options: DeploymentChainOptions): V1Deployment {
  const labels = { ...(options.labels ?? { app: options.name }) };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: options.name, namespace: options.namespace ?? 'default', labels: { ...labels } },
    spec: {
      replicas: options.replicas ?? 1,
      selector: { matchLabels: { ...labels } },
      template: {
        metadata: { labels: { ...labels } },
        spec: { containers: [{ name: options.name, image: options.image ?? 'nginx:1.27' }] },
      },
    },
  };
}

/**
 * The ownerReference a controller sets on what it owns (controller: true, blockOwnerDeletion: true).
 * The owner must have been created (it needs its uid).
 *
 * @example
 * ```ts
 * controllerRef(storedDeployment); // { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: '...', controller: true, ... }
 * ```
 */
export function controllerRef(owner: {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: { readonly name?: string; readonly uid?: string };
}): V1OwnerReference {
  const { apiVersion, kind } = owner;
  const name = owner.metadata?.name;
  const uid = owner.metadata?.uid;
  if (!apiVersion || !kind || !name || !uid) {
    throw new TypeError('controllerRef: the owner needs apiVersion, kind, metadata.name and metadata.uid (create it first)');
  }
  return { apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: true };
}

// A stable stand-in for the pod-template-hash the deployment controller computes.
function templateHash(name: string): string {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16).padStart(8, '0').slice(0, 10);
}

/**
 * The ReplicaSet the deployment controller would create for `deployment` (created first: its uid
 * goes into the ownerReference): named `<deployment>-<hash>`, labels and selector with
 * `pod-template-hash`, the same replicas and template.
 *
 * @example
 * ```ts
 * const rs = api.create('replicasets.apps', replicaSetFor(d));
 * ```
 */
export function replicaSetFor(deployment: V1Deployment): V1ReplicaSet {
  const name = deployment.metadata?.name ?? '';
  const hash = templateHash(name);
  const labels = { ...(deployment.spec?.template.metadata?.labels ?? {}), 'pod-template-hash': hash };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${name}-${hash}`,
      namespace: deployment.metadata?.namespace,
      labels: { ...labels },
      ownerReferences: [controllerRef(deployment)],
    },
    spec: {
      replicas: deployment.spec?.replicas ?? 1,
      selector: { matchLabels: { ...labels } },
      template: { ...deployment.spec?.template, metadata: { labels: { ...labels } } },
    },
  };
}

/**
 * The Pods the replicaset controller would create for `replicaSet` (created first), one per
 * replica: named `<replicaset>-<i>`, the template's labels and spec, owned by the ReplicaSet, phase
 * `Running`.
 *
 * @example
 * ```ts
 * for (const pod of podsFor(rs)) api.create('pods', pod, { withStatus: true }); // keep phase Running
 * ```
 */
export function podsFor(replicaSet: V1ReplicaSet, count = replicaSet.spec?.replicas ?? 1): V1Pod[] {
  const name = replicaSet.metadata?.name ?? '';
  const template = replicaSet.spec?.template;
  return Array.from({ length: count }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${name}-${i}`,
      namespace: replicaSet.metadata?.namespace,
      labels: { ...(template?.metadata?.labels ?? {}) },
      ownerReferences: [controllerRef(replicaSet)],
    },
    spec: template?.spec ?? { containers: [] },
    status: { phase: 'Running' },
  }));
}

/**
 * A Deployment, its ReplicaSet and its Pods, created on the fake server in that order so that each
 * ownerReference carries its owner's real uid.
 *
 * @example
 * ```ts
 * const { deployment, replicaSet, pods } = createDeploymentChain(api, { name: 'web', namespace: 'shop', replicas: 3 });
 * pods[0].metadata.ownerReferences?.[0].uid === replicaSet.metadata.uid; // true
 * ```
 */
export function createDeploymentChain(
  api: Pick<FakeApiServer, 'create'>,
  options: DeploymentChainOptions,
): { deployment: Stored<V1Deployment>; replicaSet: Stored<V1ReplicaSet>; pods: Array<Stored<V1Pod>> } {
  const deployment = api.create('deployments.apps', deploymentFixture(options));
  const replicaSet = api.create('replicasets.apps', replicaSetFor(deployment));
  // Running, as the kubelet would have reported: a plain create would make them Pending.
  const pods = podsFor(replicaSet).map((p) => api.create('pods', p, { withStatus: true }));
  return { deployment, replicaSet, pods };
}
