import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { Allocators } from '../../typeRules.js';
import { internalError } from '../../../status.js';
import { child, index, invalidValue } from '../../../schema/fieldErrors.js';
import { ensureObject, listAt, objectAt, objectsAt, stringAt } from '../support/json.js';
import { inIPv4Cidr, ipFamilyOf } from '../support/ips.js';
import { isHeadless, needsHealthCheck, needsNodePort, serviceType } from './serviceDefaults.js';

// The Service registry's allocation (pkg/registry/core/service/storage/alloc.go): IP family
// fields, cluster IPs from the service CIDR, node ports, the health check node port. The fake
// cluster is single-stack IPv4, like envtest: IPv6 and RequireDualStack are refused as there.

/**
 * kube-apiserver's default `--service-cluster-ip-range` (envtest's too): the allocator behind
 * `Allocators.clusterIP` should serve it, so that out-of-range messages name the right range.
 *
 * @example
 * ```ts
 * inIPv4Cidr('10.0.0.7', SERVICE_CLUSTER_IP_RANGE); // true
 * ```
 */
export const SERVICE_CLUSTER_IP_RANGE = '10.0.0.0/24';
/**
 * The default `--service-node-port-range`, 30000-32767.
 *
 * @example
 * ```ts
 * const last = NODE_PORT_RANGE.base + NODE_PORT_RANGE.size - 1; // 32767
 * ```
 */
export const NODE_PORT_RANGE = { base: 30000, size: 2768 } as const;

const nodePortRangeText = `${NODE_PORT_RANGE.base}-${NODE_PORT_RANGE.base + NODE_PORT_RANGE.size - 1}`;
const inNodePortRange = (p: number): boolean => p >= NODE_PORT_RANGE.base && p < NODE_PORT_RANGE.base + NODE_PORT_RANGE.size;

/** The allocator's words for a requested node port it cannot reserve. */
const nodePortError = (port: number): string =>
  inNodePortRange(port) ? 'provided port is already allocated' : `provided port is not in the valid range. The range of valid ports is ${nodePortRangeText}`;

/** initIPFamilyFields for a single-stack IPv4 cluster: the policy, the families, and their causes. */
function initIPFamilyFields(svc: JsonObject, old: JsonObject | undefined): FieldError[] {
  if (serviceType(svc) === 'ExternalName') return [];
  const spec = ensureObject(svc, 'spec');
  const headlessSelectorless = stringAt(spec, 'clusterIP') === 'None' && Object.keys(objectAt(spec, 'selector') ?? {}).length === 0;
  if (spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null) {
    const oldPolicy = old ? objectAt(old, 'spec')?.ipFamilyPolicy : undefined;
    spec.ipFamilyPolicy = typeof oldPolicy === 'string' ? oldPolicy : headlessSelectorless ? 'RequireDualStack' : 'SingleStack';
  }
  const errs: FieldError[] = [];
  const clusterIPs = listAt(spec, 'clusterIPs').filter((ip): ip is string => typeof ip === 'string');
  const families = listAt(spec, 'ipFamilies').filter((f): f is string => typeof f === 'string');
  if (spec.ipFamilyPolicy === 'SingleStack') {
    if (clusterIPs.length === 2) errs.push(invalidValue('spec.ipFamilyPolicy', spec.ipFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    if (families.length === 2) errs.push(invalidValue('spec.ipFamilyPolicy', spec.ipFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
  }
  clusterIPs.forEach((ip, i) => {
    if (ip === 'None' || i < families.length) return;
    if (ipFamilyOf(ip) === 'IPv6') errs.push(invalidValue(index('spec.clusterIPs', i), clusterIPs, 'IPv6 is not configured on this cluster'));
    else families.push('IPv4');
  });
  if (errs.length > 0) return errs;
  if (headlessSelectorless) {
    if (families.length === 0) families.push('IPv4');
    if (families.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') families.push(families[0] === 'IPv4' ? 'IPv6' : 'IPv4');
    spec.ipFamilies = families;
    return [];
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack') errs.push(invalidValue('spec.ipFamilyPolicy', spec.ipFamilyPolicy, 'this cluster is not configured for dual-stack services'));
  families.forEach((f, i) => {
    if (f !== 'IPv4') errs.push(invalidValue(index('spec.ipFamilies', i), f, 'not configured on this cluster'));
  });
  if (errs.length > 0) return errs;
  spec.ipFamilies = families.length === 0 ? ['IPv4'] : families;
  return [];
}

/** allocClusterIPs: the requested IP reserved, or the next free one. */
function allocateClusterIPs(svc: JsonObject, allocators: Allocators): FieldError[] {
  const spec = ensureObject(svc, 'spec');
  if (serviceType(svc) === 'ExternalName' || isHeadless(svc)) return [];
  const families = listAt(spec, 'ipFamilies');
  const ips = listAt(spec, 'clusterIPs').map((ip) => (typeof ip === 'string' ? ip : ''));
  for (let i = 0; i < families.length; i++) {
    const requested = ips[i] ?? '';
    if (requested === '') {
      const ip = allocators.clusterIP('IPv4');
      if (ip === undefined) throw internalError('failed to allocate a serviceIP: range is full');
      ips[i] = ip;
    } else if (!allocators.reserveClusterIP(requested)) {
      const why = inIPv4Cidr(requested, SERVICE_CLUSTER_IP_RANGE)
        ? 'provided IP is already allocated'
        : `the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${SERVICE_CLUSTER_IP_RANGE}`;
      return [invalidValue('spec.clusterIPs', ips, `failed to allocate IP ${requested}: ${why}`)];
    }
  }
  spec.clusterIPs = ips;
  spec.clusterIP = ips[0];
  return [];
}

function reserveOrAllocatePort(allocators: Allocators, requested: number, field: string): { port?: number; errors: FieldError[] } {
  if (requested !== 0) return allocators.reserveNodePort(requested) ? { port: requested, errors: [] } : { errors: [invalidValue(field, requested, nodePortError(requested))] };
  const port = allocators.nodePort();
  if (port === undefined) throw internalError('failed to allocate a nodePort: range is full');
  return { port, errors: [] };
}

/** initNodePorts (create): one node port per service port number; requested ones reserved. */
function initNodePorts(ports: ReadonlyArray<[JsonObject, number]>, allocate: boolean, allocators: Allocators): FieldError[] {
  const byServicePort = new Map<unknown, number>();
  for (const [port, i] of ports) {
    const requested = typeof port.nodePort === 'number' ? port.nodePort : 0;
    if (requested === 0 && !allocate) continue;
    const field = child(index('spec.ports', i), 'nodePort');
    const shared = byServicePort.get(port.port);
    if (shared === undefined) {
      const sibling = ports.find(([p]) => p.port === port.port && typeof p.nodePort === 'number' && p.nodePort !== 0)?.[0].nodePort;
      const { port: got, errors } = reserveOrAllocatePort(allocators, typeof sibling === 'number' ? sibling : 0, field);
      if (errors.length > 0) return errors;
      port.nodePort = got;
      byServicePort.set(port.port, got as number);
    } else if (requested === 0) port.nodePort = shared;
    else if (requested !== shared) {
      const { errors } = reserveOrAllocatePort(allocators, requested, field);
      if (errors.length > 0) return errors;
    }
  }
  return [];
}

/** updateNodePorts: new requested ports reserved, unset ones allocated (kept ones are the old ones). */
function updateNodePorts(ports: ReadonlyArray<[JsonObject, number]>, old: JsonObject, allocate: boolean, allocators: Allocators): FieldError[] {
  const oldPorts = new Set(objectsAt(objectAt(old, 'spec'), 'ports').map(([p]) => p.nodePort));
  const reserved = new Set<number>();
  for (const [port, i] of ports) {
    const requested = typeof port.nodePort === 'number' ? port.nodePort : 0;
    if (requested === 0 && !allocate) continue;
    if (requested !== 0 && (oldPorts.has(requested) || reserved.has(requested))) continue;
    const { port: got, errors } = reserveOrAllocatePort(allocators, requested, child(index('spec.ports', i), 'nodePort'));
    if (errors.length > 0) return errors;
    port.nodePort = got;
    reserved.add(got as number);
  }
  return [];
}

function allocateNodePorts(svc: JsonObject, old: JsonObject | undefined, allocators: Allocators): FieldError[] {
  if (!needsNodePort(svc)) return [];
  const spec = ensureObject(svc, 'spec');
  const allocate = !(serviceType(svc) === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === false);
  const ports = objectsAt(spec, 'ports');
  return old ? updateNodePorts(ports, old, allocate, allocators) : initNodePorts(ports, allocate, allocators);
}

function allocateHealthCheckNodePort(svc: JsonObject, old: JsonObject | undefined, allocators: Allocators): void {
  if (!needsHealthCheck(svc) || (old && needsHealthCheck(old))) return;
  const spec = ensureObject(svc, 'spec');
  const requested = typeof spec.healthCheckNodePort === 'number' ? spec.healthCheckNodePort : 0;
  if (requested !== 0) {
    if (!allocators.reserveNodePort(requested)) throw internalError(`failed to allocate requested HealthCheck NodePort ${requested}: ${nodePortError(requested)}`);
    return;
  }
  const port = allocators.nodePort();
  if (port === undefined) throw internalError('failed to allocate a HealthCheck NodePort 0: range is full');
  spec.healthCheckNodePort = port;
}

/**
 * The Service's allocation on create (`old` undefined) and update: IP family fields, cluster IPs
 * (new ones only: an update keeps its IPs unless it leaves ExternalName), node ports and the
 * health check node port. Returns the 422 causes; a full range throws kube's 500.
 *
 * @example
 * ```ts
 * allocateService(svc, undefined, allocators); // svc.spec.clusterIP = '10.0.0.12', clusterIPs, ipFamilies ['IPv4'], ipFamilyPolicy 'SingleStack'
 * ```
 */
export function allocateService(svc: JsonObject, old: JsonObject | undefined, allocators: Allocators): FieldError[] {
  const familyErrors = initIPFamilyFields(svc, old);
  if (familyErrors.length > 0) return familyErrors;
  const needsIPs = !old || serviceType(old) === 'ExternalName';
  const ipErrors = needsIPs ? allocateClusterIPs(svc, allocators) : [];
  if (ipErrors.length > 0) return ipErrors;
  const portErrors = allocateNodePorts(svc, old, allocators);
  if (portErrors.length > 0) return portErrors;
  allocateHealthCheckNodePort(svc, old, allocators);
  return [];
}
