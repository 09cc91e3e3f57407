import type { JsonObject } from '../../../resources.js';
import { ensureObject, isObject, objectAt, objectsAt, setDefault, setDefaultString } from '../support/json.js';
import { defaultQuantityField, defaultResourceList } from '../support/resourceLists.js';
import { defaultContainer, defaultPodContainer } from './containerDefaults.js';

// SetDefaults_PodSpec and the generated defaults of everything a PodSpec holds (volumes and
// containers), applied alike to Pods and to every pod template (Deployment, ReplicaSet,
// StatefulSet, DaemonSet, Job, CronJob's jobTemplate, ReplicationController, PodTemplate).

const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos', 'csi',
  'ephemeral', 'image',
];

const DEFAULT_MODE = 420; // 0644, the secret/configMap/downwardAPI/projected volume file mode

function defaultDownwardItems(source: JsonObject | undefined): void {
  for (const [item] of objectsAt(source, 'items')) {
    const fieldRef = objectAt(item, 'fieldRef');
    if (fieldRef) setDefaultString(fieldRef, 'apiVersion', 'v1');
  }
}

function defaultProjected(projected: JsonObject): void {
  setDefault(projected, 'defaultMode', DEFAULT_MODE);
  for (const [source] of objectsAt(projected, 'sources')) {
    defaultDownwardItems(objectAt(source, 'downwardAPI'));
    const token = objectAt(source, 'serviceAccountToken');
    if (token) setDefault(token, 'expirationSeconds', 3600);
  }
}

/**
 * SetDefaults_Volume and the defaults of its source, in place.
 *
 * @example
 * ```ts
 * const v = { name: 'scratch' };
 * defaultVolume(v); // v.emptyDir = {}
 * ```
 */
export function defaultVolume(volume: JsonObject): void {
  if (!VOLUME_SOURCES.some((k) => volume[k] !== undefined && volume[k] !== null)) volume.emptyDir = {};
  const hostPath = objectAt(volume, 'hostPath');
  if (hostPath) setDefault(hostPath, 'type', '');
  for (const key of ['secret', 'configMap', 'downwardAPI']) {
    const source = objectAt(volume, key);
    if (source) setDefault(source, 'defaultMode', DEFAULT_MODE);
  }
  defaultDownwardItems(objectAt(volume, 'downwardAPI'));
  const projected = objectAt(volume, 'projected');
  if (projected) defaultProjected(projected);
  defaultQuantityField(objectAt(volume, 'emptyDir'), 'sizeLimit');
  const iscsi = objectAt(volume, 'iscsi');
  if (iscsi) setDefaultString(iscsi, 'iscsiInterface', 'default');
  const rbd = objectAt(volume, 'rbd');
  if (rbd) {
    setDefaultString(rbd, 'pool', 'rbd');
    setDefaultString(rbd, 'user', 'admin');
    setDefaultString(rbd, 'keyring', '/etc/ceph/keyring');
  }
  const claimSpec = objectAt(objectAt(objectAt(volume, 'ephemeral'), 'volumeClaimTemplate'), 'spec');
  if (claimSpec) defaultPersistentVolumeClaimSpec(claimSpec);
}

/**
 * SetDefaults_PersistentVolumeClaimSpec: `volumeMode: Filesystem`, resource quantities.
 *
 * @example
 * ```ts
 * const spec = { resources: { requests: { storage: '1024Mi' } } };
 * defaultPersistentVolumeClaimSpec(spec); // spec.volumeMode === 'Filesystem', storage '1Gi'
 * ```
 */
export function defaultPersistentVolumeClaimSpec(spec: JsonObject): void {
  setDefault(spec, 'volumeMode', 'Filesystem');
  const resources = objectAt(spec, 'resources');
  defaultResourceList(resources, 'limits');
  defaultResourceList(resources, 'requests');
}

/**
 * SetDefaults_PodSpec with its volumes and containers, in place (Pods and pod templates).
 *
 * @example
 * ```ts
 * const spec = { containers: [{ name: 'web', image: 'nginx:1.27' }] };
 * defaultPodSpec(spec); // spec.restartPolicy === 'Always', spec.dnsPolicy === 'ClusterFirst', ...
 * ```
 */
export function defaultPodSpec(spec: JsonObject): void {
  setDefaultString(spec, 'dnsPolicy', 'ClusterFirst');
  setDefaultString(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefaultString(spec, 'schedulerName', 'default-scheduler');
  for (const [volume] of objectsAt(spec, 'volumes')) defaultVolume(volume);
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const [container] of objectsAt(spec, key)) defaultContainer(container);
  }
  defaultResourceList(spec, 'overhead');
  const podResources = objectAt(spec, 'resources');
  defaultResourceList(podResources, 'limits');
  defaultResourceList(podResources, 'requests');
}

/**
 * A pod template's defaults (its spec; the template's metadata has none). The template's spec is
 * a struct in Go, so an absent one is defaulted as the zero PodSpec (`restartPolicy`, `dnsPolicy`,
 * ... are set and validation then reports only what the user must give, such as `containers`).
 * Callers pass templates that are structs in Go through {@link ensureObject}; a nil pointer
 * template (ReplicationController's) is not defaulted.
 *
 * @example
 * ```ts
 * defaultPodTemplate(ensureObject(deployment.spec, 'template'));
 * ```
 */
export function defaultPodTemplate(template: unknown): void {
  if (!isObject(template)) return;
  defaultPodSpec(ensureObject(template, 'spec'));
}

/**
 * SetObjectDefaults_Pod: SetDefaults_Pod (requests from limits, `enableServiceLinks`, host
 * ports under host networking) then the PodSpec defaults.
 *
 * @example
 * ```ts
 * defaultPod(pod); // pod.spec.enableServiceLinks === true
 * ```
 */
export function defaultPod(pod: JsonObject): void {
  const spec = ensureObject(pod, 'spec');
  const hostNetwork = spec.hostNetwork === true;
  for (const [c] of objectsAt(spec, 'containers')) defaultPodContainer(c, hostNetwork);
  for (const [c] of objectsAt(spec, 'initContainers')) defaultPodContainer(c, hostNetwork);
  setDefault(spec, 'enableServiceLinks', true);
  defaultPodSpec(spec);
}
