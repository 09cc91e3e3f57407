import type { JsonObject } from '../../../resources.js';
import { ensureObject, listAt, objectAt, objectsAt, semanticEqual, setDefault, setDefaultString, stringAt } from '../support/json.js';

// SetDefaults_Service, and the Service strategy's PrepareForCreate/PrepareForUpdate fix-ups
// (normalizeClusterIPs, patchAllocatedValues, dropTypeDependentFields) that make a resubmitted
// manifest without the allocated clusterIP and nodePorts an update, not a change.

/**
 * A Service's `spec.type` (`''` when unset).
 *
 * @example
 * ```ts
 * serviceType({ spec: { type: 'NodePort' } }); // 'NodePort'
 * ```
 */
export const serviceType = (svc: JsonObject): string => stringAt(objectAt(svc, 'spec'), 'type');

/**
 * `ExternallyAccessible`: a LoadBalancer, a NodePort, or a ClusterIP with external IPs.
 *
 * @example
 * ```ts
 * externallyAccessible({ spec: { type: 'ClusterIP', externalIPs: ['1.2.3.4'] } }); // true
 * ```
 */
export const externallyAccessible = (svc: JsonObject): boolean => {
  const type = serviceType(svc);
  return type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && listAt(objectAt(svc, 'spec'), 'externalIPs').length > 0);
};

/**
 * `NeedsHealthCheck`: a LoadBalancer with `externalTrafficPolicy: Local`.
 *
 * @example
 * ```ts
 * needsHealthCheck({ spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Local' } }); // true
 * ```
 */
export const needsHealthCheck = (svc: JsonObject): boolean => serviceType(svc) === 'LoadBalancer' && stringAt(objectAt(svc, 'spec'), 'externalTrafficPolicy') === 'Local';

/**
 * Every type but ExternalName gets cluster IPs.
 *
 * @example
 * ```ts
 * needsClusterIP({ spec: { type: 'ExternalName' } }); // false
 * ```
 */
export const needsClusterIP = (svc: JsonObject): boolean => serviceType(svc) !== 'ExternalName';

/**
 * NodePort and LoadBalancer Services get node ports.
 *
 * @example
 * ```ts
 * needsNodePort({ spec: { type: 'LoadBalancer' } }); // true
 * ```
 */
export const needsNodePort = (svc: JsonObject): boolean => serviceType(svc) === 'NodePort' || serviceType(svc) === 'LoadBalancer';

/**
 * A headless Service (`clusterIP: None`).
 *
 * @example
 * ```ts
 * isHeadless({ spec: { clusterIP: 'None' } }); // true
 * ```
 */
export const isHeadless = (svc: JsonObject): boolean => {
  const spec = objectAt(svc, 'spec');
  return stringAt(spec, 'clusterIP') === 'None' || listAt(spec, 'clusterIPs')[0] === 'None';
};

/**
 * SetDefaults_Service (core/v1) in place.
 *
 * @example
 * ```ts
 * const svc = { spec: { ports: [{ port: 80 }] } };
 * defaultService(svc); // type ClusterIP, sessionAffinity None, ports[0] { protocol: 'TCP', targetPort: 80 }, internalTrafficPolicy Cluster
 * ```
 */
export function defaultService(svc: JsonObject): void {
  const spec = ensureObject(svc, 'spec');
  setDefaultString(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const timeout = objectAt(objectAt(spec, 'sessionAffinityConfig'), 'clientIP')?.timeoutSeconds;
    if (timeout === undefined || timeout === null) spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  setDefaultString(spec, 'type', 'ClusterIP');
  for (const [port] of objectsAt(spec, 'ports')) {
    setDefaultString(port, 'protocol', 'TCP');
    if (port.targetPort === undefined || port.targetPort === null || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port;
  }
  if (externallyAccessible(svc)) setDefaultString(spec, 'externalTrafficPolicy', 'Cluster');
  const type = spec.type;
  if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') setDefault(spec, 'internalTrafficPolicy', 'Cluster');
  if (type === 'LoadBalancer') {
    setDefault(spec, 'allocateLoadBalancerNodePorts', true);
    for (const [ingress] of objectsAt(objectAt(objectAt(svc, 'status'), 'loadBalancer'), 'ingress')) {
      if (stringAt(ingress, 'ip') !== '') setDefault(ingress, 'ipMode', 'VIP');
    }
  }
}

const clusterIPsOf = (svc: JsonObject): unknown[] => listAt(objectAt(svc, 'spec'), 'clusterIPs');
const nodePortsOf = (svc: JsonObject): unknown[] => objectsAt(objectAt(svc, 'spec'), 'ports').map(([p]) => p.nodePort ?? 0);

/** normalizeClusterIPs: keep `clusterIP` and `clusterIPs` in step for clients that set one. */
function normalizeClusterIPs(spec: JsonObject, oldSpec: JsonObject | undefined): void {
  const clusterIP = stringAt(spec, 'clusterIP');
  const clusterIPs = listAt(spec, 'clusterIPs');
  if (!oldSpec) {
    if (clusterIP !== '' && clusterIPs.length === 0) spec.clusterIPs = [clusterIP];
    return;
  }
  const oldIPs = listAt(oldSpec, 'clusterIPs');
  if (oldIPs.length > 0 && clusterIPs.length === 0 && stringAt(oldSpec, 'clusterIP') === clusterIP) spec.clusterIPs = oldIPs;
  if (stringAt(oldSpec, 'clusterIP') !== stringAt(spec, 'clusterIP')) {
    const same = semanticEqual(listAt(oldSpec, 'clusterIPs'), listAt(spec, 'clusterIPs'));
    if (stringAt(oldSpec, 'clusterIP') !== '' && stringAt(spec, 'clusterIP') === '') {
      if (same) delete spec.clusterIPs;
    } else if (same) spec.clusterIPs = [spec.clusterIP];
  }
}

/** patchAllocatedValues: a resubmitted manifest keeps the clusterIP, node ports and health check port allocated before. */
function patchAllocatedValues(svc: JsonObject, old: JsonObject): void {
  const spec = ensureObject(svc, 'spec');
  const oldSpec = objectAt(old, 'spec') ?? {};
  if (needsClusterIP(old) && needsClusterIP(svc)) {
    if (stringAt(spec, 'clusterIP') === '' && oldSpec.clusterIP !== undefined) spec.clusterIP = oldSpec.clusterIP;
    if (listAt(spec, 'clusterIPs').length === 0 && listAt(oldSpec, 'clusterIPs').length > 0) spec.clusterIPs = oldSpec.clusterIPs;
  }
  if (needsNodePort(old) && needsNodePort(svc)) {
    const used = new Set(nodePortsOf(old).filter((p) => p !== 0 && nodePortsOf(svc).includes(p)));
    const byName = new Map(objectsAt(oldSpec, 'ports').map(([p]) => [stringAt(p, 'name'), p.nodePort ?? 0]));
    for (const [port] of objectsAt(spec, 'ports')) {
      if (port.nodePort !== undefined && port.nodePort !== null && port.nodePort !== 0) continue;
      const oldValue = byName.get(stringAt(port, 'name')) ?? 0;
      if (!used.has(oldValue) && oldValue !== 0) port.nodePort = oldValue;
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(svc) && !spec.healthCheckNodePort) spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
}

/** dropTypeDependentFields: what a type change leaves behind that the user did not set. */
function dropTypeDependentFields(svc: JsonObject, old: JsonObject): void {
  const spec = ensureObject(svc, 'spec');
  const oldSpec = objectAt(old, 'spec') ?? {};
  if (needsClusterIP(old) && !needsClusterIP(svc)) {
    if (stringAt(spec, 'clusterIP') === stringAt(oldSpec, 'clusterIP') && semanticEqual(clusterIPsOf(svc), clusterIPsOf(old))) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (semanticEqual(spec.ipFamilies, oldSpec.ipFamilies)) delete spec.ipFamilies;
    if (spec.ipFamilyPolicy === oldSpec.ipFamilyPolicy) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(old) && !needsNodePort(svc) && semanticEqual(nodePortsOf(svc), nodePortsOf(old))) {
    for (const [port] of objectsAt(spec, 'ports')) delete port.nodePort;
  }
  if (needsHealthCheck(old) && !needsHealthCheck(svc) && spec.healthCheckNodePort === oldSpec.healthCheckNodePort) delete spec.healthCheckNodePort;
  if (serviceType(old) === 'LoadBalancer' && serviceType(svc) !== 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === oldSpec.allocateLoadBalancerNodePorts) {
    delete spec.allocateLoadBalancerNodePorts;
  }
  if (serviceType(old) === 'LoadBalancer' && serviceType(svc) !== 'LoadBalancer' && spec.loadBalancerClass === oldSpec.loadBalancerClass) delete spec.loadBalancerClass;
  if (externallyAccessible(old) && !externallyAccessible(svc) && spec.externalTrafficPolicy === oldSpec.externalTrafficPolicy) delete spec.externalTrafficPolicy;
}

/**
 * The Service strategy's create/update fix-ups before allocation and validation (idempotent).
 *
 * @example
 * ```ts
 * prepareService(resubmitted, stored); // resubmitted.spec.clusterIP = stored.spec.clusterIP, nodePorts kept
 * ```
 */
export function prepareService(svc: JsonObject, old: JsonObject | undefined): void {
  const spec = ensureObject(svc, 'spec');
  if (old) patchAllocatedValues(svc, old);
  normalizeClusterIPs(spec, old ? objectAt(old, 'spec') : undefined);
  if (old) dropTypeDependentFields(svc, old);
}
