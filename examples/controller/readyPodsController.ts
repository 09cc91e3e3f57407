// A controller that writes: for each Deployment, a `ReadyPodsCounted` condition in its status and
// an owned ConfigMap with the number of its ready Pods, both by server-side apply as field manager
// `example.com/ready-pods` (it owns exactly those fields: its condition among the deployment
// controller's), and a label with the same number on the Deployment, by a JSON patch (tested on
// the resourceVersion: a patch never creates, and the Deployment is not this controller's to
// create); it records an Event each time the number changes.
import type { AppsV1Api, KubeConfig } from '@kubernetes/client-node';
import type { Deployment as V1Deployment, ReplicaSet as V1ReplicaSet } from 'kubernetes-types/apps/v1.js';
import type { ConfigMap as V1ConfigMap, Pod as V1Pod } from 'kubernetes-types/core/v1.js';
import {
  ApiStatusError,
  apply,
  builtInResources,
  can,
  controller,
  controllerReference,
  jsonPatch,
  metaNamespaceKeyFunc,
  objectReference,
  owned,
  selectedBy,
  selectorOf,
  watch,
  type Controller,
  type EventRecorder,
  type SharedInformerFactory,
  type Transport,
} from 'rxkube';

/** The label the controller maintains. */
export const READY_PODS_LABEL = 'example.com/ready-pods';

/** The field manager of every write: the fields it applies are this controller's. */
export const FIELD_MANAGER = 'example.com/ready-pods';

/** The condition type the controller keeps in each Deployment's status. */
export const READY_PODS_CONDITION = 'ReadyPodsCounted';

/** The name of a Deployment's owned ConfigMap. */
export const childName = (deployment: string): string => `${deployment}-ready-pods`;

/** Whether a Pod's Ready condition is True. */
export const isReady = (pod: V1Pod): boolean =>
  pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** What the controller writes with. */
export interface ReadyPodsOptions {
  /** Where apply sends its requests: a KubeConfig (client-node's credentials) or any Transport. */
  readonly kubeConfig: KubeConfig | Transport;
  /** The label's JSON patch goes through client-node's typed client. */
  readonly apps: AppsV1Api;
  readonly recorder: EventRecorder;
  readonly concurrency?: number;
}

const { deployments: DEPLOYMENTS, configMaps: CONFIGMAPS } = builtInResources;

/**
 * The controller over the factory's Deployments, ReplicaSets, ConfigMaps and Pods: a ReplicaSet or
 * owned ConfigMap change enqueues its controlling Deployment (`owns`), a Pod change the
 * Deployments that select it (`watches` with `selectedBy`), and each reconcile counts the ready
 * Pods the Deployment selects and applies what it owns. Applies are idempotent (an apply that
 * changes nothing writes nothing), so the reconcile applies every time, without comparing first.
 */
export function readyPodsController(factory: SharedInformerFactory, options: ReadyPodsOptions): Controller {
  const deployments = factory.deployments();
  const replicaSets = factory.replicaSets();
  const configMaps = factory.configMaps();
  const pods = factory.pods();
  const { kubeConfig, apps, recorder } = options;

  return controller<V1Deployment>({
    name: 'ready-pods',
    for: deployments,
    forKind: { apiVersion: 'apps/v1', kind: 'Deployment' },
    // A ReplicaSet or a ConfigMap change enqueues its controlling Deployment (owner references).
    owns: [owned<V1ReplicaSet>(replicaSets), owned<V1ConfigMap>(configMaps)],
    // A Pod change enqueues the Deployments whose selector matches it.
    watches: [
      watch<V1Pod>(pods, (pod) =>
        selectedBy(pod, deployments.lister().byNamespace(pod.metadata?.namespace ?? '').list()).map(metaNamespaceKeyFunc),
      ),
    ],
    // What the reconcile writes, which rxkube cannot see: the RBAC role generated from this
    // controller (./rbac.ts, permissionsOf) grants these besides the informers' list and watch.
    permissions: [
      can.patchStatus(DEPLOYMENTS), // the condition: apply to /status (a patch; it never creates)
      can.apply(CONFIGMAPS), // the owned ConfigMap: apply, which creates it the first time
      can.patch(DEPLOYMENTS), // the label: a JSON patch through client-node
      recorder, // its Events: create, and patch of their series
    ],
    concurrency: options.concurrency ?? 2,
    reconcile: async (_key, { object: deployment }) => {
      if (!deployment) return; // deleted: the owned ConfigMap goes with it (garbage collection)
      const namespace = deployment.metadata!.namespace!;
      const name = deployment.metadata!.name!;
      const selected = pods.lister().byNamespace(namespace).list(selectorOf(deployment));
      const ready = selected.filter(isReady).length;
      const before = deployment.metadata?.labels?.[READY_PODS_LABEL];
      const write = { fieldManager: FIELD_MANAGER, force: true }; // these fields are ours: take them back if someone else wrote them
      // Our condition only, through /status: conditions merge by type, the others stay their owners'.
      // Never creates: an apply to /status of a Deployment deleted meanwhile is a 404, and we are done.
      try {
        await apply<V1Deployment>(
          kubeConfig,
          DEPLOYMENTS,
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name, namespace },
            status: {
              conditions: [
                { type: READY_PODS_CONDITION, status: 'True', reason: 'Counted', message: `${ready} of ${selected.length} selected pods are ready` },
              ],
            },
          },
          { ...write, subresource: 'status' },
        );
      } catch (e) {
        if (e instanceof ApiStatusError && e.statusCode === 404) return;
        throw e;
      }
      // The owned child: created by the first apply, applied again if deleted (owns enqueues us).
      await apply<V1ConfigMap>(
        kubeConfig,
        CONFIGMAPS,
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: childName(name), namespace, ownerReferences: [controllerReference(deployment, { apiVersion: 'apps/v1', kind: 'Deployment' })] },
          data: { ready: String(ready), selected: String(selected.length) },
        },
        write,
      );
      if (before === String(ready)) return;
      // The label on an object we do not own: a patch (an apply would create the Deployment if it
      // was deleted meanwhile). A 422 (it changed since the cache saw it) throws: retried with backoff.
      const body = jsonPatch(deployment, (d) => {
        d.metadata!.labels = { ...d.metadata!.labels, [READY_PODS_LABEL]: String(ready) };
      });
      await apps.patchNamespacedDeployment({ name, namespace, body });
      recorder.publish({
        type: 'Normal',
        reason: 'ReadyPodsChanged',
        action: 'Apply',
        note: `${READY_PODS_LABEL}: ${before ?? '(none)'} -> ${ready}`,
        regarding: objectReference(deployment, { apiVersion: 'apps/v1', kind: 'Deployment' }),
      });
    },
  });
}
