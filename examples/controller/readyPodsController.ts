// A controller that writes: it keeps a label on each Deployment equal to the number of its ready
// Pods, patching with jsonPatch (tested on the resourceVersion) and recording an Event each time
// the number changes.
import type { AppsV1Api } from '@kubernetes/client-node';
import type { Deployment as V1Deployment, ReplicaSet as V1ReplicaSet } from 'kubernetes-types/apps/v1.js';
import type { Pod as V1Pod } from 'kubernetes-types/core/v1.js';
import {
  controller,
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
} from '../../lib/index.js';

/** The label the controller maintains. */
export const READY_PODS_LABEL = 'example.com/ready-pods';

/** Whether a Pod's Ready condition is True. */
export const isReady = (pod: V1Pod): boolean =>
  pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** What the controller writes with. */
export interface ReadyPodsOptions {
  readonly apps: AppsV1Api;
  readonly recorder: EventRecorder;
  readonly concurrency?: number;
}

/**
 * The controller over the factory's Deployments, ReplicaSets and Pods: a ReplicaSet change
 * enqueues its controlling Deployment (`owns`), a Pod change the Deployments that select it
 * (`watches` with `selectedBy`), and each reconcile counts the ready Pods the Deployment selects.
 */
export function readyPodsController(factory: SharedInformerFactory, options: ReadyPodsOptions): Controller {
  const deployments = factory.deployments();
  const replicaSets = factory.replicaSets();
  const pods = factory.pods();
  const { apps, recorder } = options;

  return controller<V1Deployment>({
    name: 'ready-pods',
    for: deployments,
    forKind: { apiVersion: 'apps/v1', kind: 'Deployment' },
    // A ReplicaSet change enqueues its controlling Deployment (owner references).
    owns: [owned<V1ReplicaSet>(replicaSets)],
    // A Pod change enqueues the Deployments whose selector matches it.
    watches: [
      watch<V1Pod>(pods, (pod) =>
        selectedBy(pod, deployments.lister().byNamespace(pod.metadata?.namespace ?? '').list()).map(metaNamespaceKeyFunc),
      ),
    ],
    concurrency: options.concurrency ?? 2,
    reconcile: async (_key, { object: deployment }) => {
      if (!deployment) return; // deleted: nothing to keep
      const namespace = deployment.metadata!.namespace!;
      const ready = String(pods.lister().byNamespace(namespace).list(selectorOf(deployment)).filter(isReady).length);
      const before = deployment.metadata?.labels?.[READY_PODS_LABEL];
      if (before === ready) return;
      const body = jsonPatch(deployment, (d) => {
        d.metadata!.labels = { ...d.metadata!.labels, [READY_PODS_LABEL]: ready };
      });
      // A 422 (the Deployment changed since the cache saw it) throws: the key is retried with backoff.
      await apps.patchNamespacedDeployment({ name: deployment.metadata!.name!, namespace, body });
      recorder.publish({
        type: 'Normal',
        reason: 'ReadyPodsChanged',
        action: 'Label',
        note: `${READY_PODS_LABEL}: ${before ?? '(none)'} -> ${ready}`,
        regarding: objectReference(deployment, { apiVersion: 'apps/v1', kind: 'Deployment' }),
      });
    },
  });
}
