import type { JsonObject } from '../../../resources.js';
import { isObject, objectAt, objectsAt, setDefault, setDefaultString } from '../support/json.js';
import { imageTag } from '../support/imageReference.js';
import { defaultResourceList } from '../support/resourceLists.js';

// SetDefaults_Container and what zz_generated.defaults.go applies inside a container (core/v1):
// pull policy from the image tag, termination message, port protocol, downward-API apiVersion,
// resource quantities, probe thresholds and HTTP handler path/scheme.

function defaultHttpGet(handler: JsonObject | undefined): void {
  const httpGet = objectAt(handler, 'httpGet');
  if (!httpGet) return;
  setDefaultString(httpGet, 'path', '/');
  setDefaultString(httpGet, 'scheme', 'HTTP');
}

function defaultProbe(container: JsonObject, key: string): void {
  const probe = objectAt(container, key);
  if (!probe) return;
  for (const [field, value] of [
    ['timeoutSeconds', 1],
    ['periodSeconds', 10],
    ['successThreshold', 1],
    ['failureThreshold', 3],
  ] as const) {
    if (probe[field] === undefined || probe[field] === null || probe[field] === 0) probe[field] = value;
  }
  defaultHttpGet(probe);
  const grpc = objectAt(probe, 'grpc');
  if (grpc) setDefault(grpc, 'service', '');
}

function defaultEnv(container: JsonObject): void {
  for (const [env] of objectsAt(container, 'env')) {
    const valueFrom = objectAt(env, 'valueFrom');
    const fieldRef = objectAt(valueFrom, 'fieldRef');
    if (fieldRef) setDefaultString(fieldRef, 'apiVersion', 'v1');
    const fileKeyRef = objectAt(valueFrom, 'fileKeyRef');
    if (fileKeyRef) setDefault(fileKeyRef, 'optional', false);
  }
}

/**
 * Defaults one container (regular, init or ephemeral) in place.
 *
 * @example
 * ```ts
 * const c = { name: 'web', image: 'nginx' };
 * defaultContainer(c); // c.imagePullPolicy === 'Always', c.terminationMessagePolicy === 'File'
 * ```
 */
export function defaultContainer(container: JsonObject): void {
  if (container.imagePullPolicy === undefined || container.imagePullPolicy === null || container.imagePullPolicy === '') {
    const image = typeof container.image === 'string' ? container.image : '';
    container.imagePullPolicy = imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';
  }
  setDefaultString(container, 'terminationMessagePath', '/dev/termination-log');
  setDefaultString(container, 'terminationMessagePolicy', 'File');
  for (const [port] of objectsAt(container, 'ports')) setDefaultString(port, 'protocol', 'TCP');
  defaultEnv(container);
  const resources = objectAt(container, 'resources');
  defaultResourceList(resources, 'limits');
  defaultResourceList(resources, 'requests');
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(container, probe);
  const lifecycle = objectAt(container, 'lifecycle');
  defaultHttpGet(objectAt(lifecycle, 'postStart'));
  defaultHttpGet(objectAt(lifecycle, 'preStop'));
}

/**
 * Kube's Pod-only container defaults (SetDefaults_Pod, not templates): requests copied from
 * limits for resources without a request, and with host networking each port's hostPort from
 * its containerPort.
 *
 * @example
 * ```ts
 * const c = { resources: { limits: { cpu: '1' } } };
 * defaultPodContainer(c, false); // c.resources.requests = { cpu: '1' }
 * ```
 */
export function defaultPodContainer(container: JsonObject, hostNetwork: boolean): void {
  const resources = objectAt(container, 'resources');
  const limits = objectAt(resources, 'limits');
  if (resources && limits && Object.keys(limits).length > 0) {
    const requests = isObject(resources.requests) ? resources.requests : {};
    for (const [k, v] of Object.entries(limits)) if (!(k in requests)) requests[k] = v;
    resources.requests = requests;
  }
  if (!hostNetwork) return;
  for (const [port] of objectsAt(container, 'ports')) {
    if (port.hostPort === undefined || port.hostPort === null || port.hostPort === 0) port.hostPort = port.containerPort;
  }
}
