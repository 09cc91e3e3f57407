// The ready-pods controller's RBAC, generated from what its code declares: the factory's informers
// (list, watch), and the writes and the event recorder it names in `permissions`. Nothing here
// lists a verb: the RBAC spec runs the controller as this ServiceAccount under enforced RBAC, and
// again without each write verb, to show that the generated role is what the controller needs.
import { AppsV1Api, EventsV1Api } from '@kubernetes/client-node';
import { clientNodeEventSink, eventRecorder, sharedInformerFactory } from 'rxkube';
import { controllerRbac } from 'rxkube/crd';
import { readyPodsController } from './readyPodsController.js';

/** The ServiceAccount the controller runs as, and the name of its ClusterRole and binding. */
export const SERVICE_ACCOUNT = { namespace: 'ready-pods', name: 'ready-pods' } as const;

/**
 * Its ServiceAccount, ClusterRole and ClusterRoleBinding (`readyPodsRbac.objects()`), built as
 * main.ts wires the controller (built, never started); `npx rxkube-crd examples/controller/rbac.ts`
 * writes them as YAML.
 */
export const readyPodsRbac = controllerRbac({
  name: 'ready-pods',
  serviceAccount: SERVICE_ACCOUNT,
  build: (kubeConfig) =>
    readyPodsController(sharedInformerFactory(kubeConfig), {
      kubeConfig,
      apps: kubeConfig.makeApiClient(AppsV1Api),
      recorder: eventRecorder({ sink: clientNodeEventSink(kubeConfig.makeApiClient(EventsV1Api)), reportingController: 'example.com/ready-pods', reportingInstance: 'ready-pods-0' }),
    }),
});
