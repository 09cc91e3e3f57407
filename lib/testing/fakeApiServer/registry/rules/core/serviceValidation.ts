import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import { child, duplicate, forbidden, index, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { invalidEach } from '../support/errors.js';
import { validatePortNumOrName } from '../support/intOrString.js';
import { ipFamilyOf, validateEndpointIP, validateLegacyIP } from '../support/ips.js';
import { listAt, objectAt, objectsAt, stringAt } from '../support/json.js';
import { validateLabels } from '../support/labels.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum } from '../support/names.js';
import { externallyAccessible, isHeadless, needsHealthCheck, serviceType } from './serviceDefaults.js';

// core validation's validateService (and ValidateServiceClusterIPsRelatedFields), the rules on a
// Service's ports, types, affinity, IPs and traffic policies.

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const MAX_AFFINITY_SECONDS = 86400;

function validatePorts(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  const ports = objectsAt(spec, 'ports');
  const requireName = listAt(spec, 'ports').length > 1;
  for (const [sp, i] of ports) {
    const p = index('spec.ports', i);
    const name = stringAt(sp, 'name');
    if (requireName && name === '') errs.push(required(child(p, 'name')));
    else if (name !== '') {
      errs.push(...invalidEach(child(p, 'name'), name, isDNS1123Label(name)));
      if (names.has(name)) errs.push(duplicate(child(p, 'name'), name));
      else names.add(name);
    }
    const port = typeof sp.port === 'number' ? sp.port : 0;
    errs.push(...invalidEach(child(p, 'port'), port, isValidPortNum(port)));
    const protocol = stringAt(sp, 'protocol');
    if (protocol === '') errs.push(required(child(p, 'protocol')));
    else if (!PROTOCOLS.includes(protocol)) errs.push(notSupported(child(p, 'protocol'), protocol, PROTOCOLS));
    errs.push(...validatePortNumOrName(sp.targetPort, child(p, 'targetPort')));
    if (typeof sp.appProtocol === 'string') errs.push(...invalidEach(child(p, 'appProtocol'), sp.appProtocol, isQualifiedName(sp.appProtocol)));
  }
  return errs;
}

function validateTypeSpecific(svc: JsonObject, spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const type = serviceType(svc);
  const headless = isHeadless(svc);
  if (listAt(spec, 'ports').length === 0 && !headless && type !== 'ExternalName') errs.push(required('spec.ports'));
  if ((type === 'LoadBalancer' || type === 'NodePort') && headless) {
    errs.push(invalidValue(index('spec.clusterIPs', 0), listAt(spec, 'clusterIPs')[0] ?? 'None', `may not be set to 'None' for ${type} services`));
  }
  if (type === 'ExternalName') {
    if (listAt(spec, 'clusterIPs').length > 0) errs.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (listAt(spec, 'ipFamilies').length > 0) errs.push(forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) errs.push(forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    const cname = stringAt(spec, 'externalName').replace(/\.$/, '');
    if (cname === '') errs.push(required('spec.externalName'));
    else errs.push(...invalidEach('spec.externalName', cname, isDNS1123Subdomain(cname)));
  }
  return errs;
}

function validateAffinity(spec: JsonObject): FieldError[] {
  const affinity = stringAt(spec, 'sessionAffinity');
  if (affinity === '') return [required('spec.sessionAffinity')];
  if (affinity !== 'ClientIP' && affinity !== 'None') return [notSupported('spec.sessionAffinity', affinity, ['ClientIP', 'None'])];
  const path = 'spec.sessionAffinityConfig';
  const config = objectAt(spec, 'sessionAffinityConfig');
  if (affinity === 'None') return spec.sessionAffinityConfig !== undefined && spec.sessionAffinityConfig !== null ? [forbidden(path, 'must not be set when session affinity is None')] : [];
  if (!config) return [required(path, 'when session affinity type is ClientIP')];
  const clientIP = objectAt(config, 'clientIP');
  if (!clientIP) return [required(child(path, 'clientIP'), 'when session affinity type is ClientIP')];
  const timeout = clientIP.timeoutSeconds;
  const tPath = child(child(path, 'clientIP'), 'timeoutSeconds');
  if (typeof timeout !== 'number') return [required(tPath, 'when session affinity type is ClientIP')];
  return timeout <= 0 || timeout > MAX_AFFINITY_SECONDS ? [invalidValue(tPath, timeout, `must be greater than 0 and less than ${MAX_AFFINITY_SECONDS}`)] : [];
}

/**
 * `ValidateServiceClusterIPsRelatedFields`.
 *
 * @example
 * ```ts
 * validateClusterIPFields({ spec: { clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.2'] } }, undefined);
 * // [spec.clusterIPs: Invalid value: ["10.0.0.2"]: first value must match `clusterIP`]
 * ```
 */
export function validateClusterIPFields(svc: JsonObject, old: JsonObject | undefined): FieldError[] {
  if (serviceType(svc) === 'ExternalName') return [];
  const spec = objectAt(svc, 'spec') ?? {};
  const errs: FieldError[] = [];
  const clusterIP = stringAt(spec, 'clusterIP');
  const clusterIPs = listAt(spec, 'clusterIPs').map((v) => (typeof v === 'string' ? v : ''));
  if (clusterIP !== '') {
    if (clusterIPs.length === 0) errs.push(required('spec.clusterIPs'));
    else if (clusterIPs[0] !== clusterIP) errs.push(invalidValue('spec.clusterIPs', clusterIPs, 'first value must match `clusterIP`'));
  } else if (clusterIPs.length > 0) errs.push(invalidValue('spec.clusterIPs', clusterIPs, 'must be empty when `clusterIP` is not specified'));
  const families = listAt(spec, 'ipFamilies');
  const seen = new Set<unknown>();
  families.forEach((f, i) => {
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(notSupported(index('spec.ipFamilies', i), f, ['IPv4', 'IPv6']));
    if (seen.has(f)) errs.push(duplicate(index('spec.ipFamilies', i), f));
    seen.add(f);
  });
  const policy = spec.ipFamilyPolicy;
  if (policy !== undefined && policy !== null && !['PreferDualStack', 'RequireDualStack', 'SingleStack'].includes(policy as string)) {
    errs.push(notSupported('spec.ipFamilyPolicy', policy, ['PreferDualStack', 'RequireDualStack', 'SingleStack']));
  }
  const oldIPs = old ? listAt(objectAt(old, 'spec'), 'clusterIPs').filter((v): v is string => typeof v === 'string') : [];
  let invalidIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        invalidIPs = true;
        errs.push(invalidValue('spec.clusterIPs', clusterIPs, "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = validateLegacyIP(index('spec.clusterIPs', i), ip, oldIPs);
    if (ipErrs.length > 0) invalidIPs = true;
    errs.push(...ipErrs);
  });
  if (clusterIPs.length > 2) errs.push(invalidValue('spec.clusterIPs', clusterIPs, 'may only hold up to 2 values'));
  if (invalidIPs) return errs;
  if (clusterIPs.length > 1 && ipFamilyOf(clusterIPs[0]) === ipFamilyOf(clusterIPs[1])) {
    errs.push(invalidValue('spec.clusterIPs', clusterIPs, 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(svc)) {
    clusterIPs.forEach((ip, i) => {
      const family = families[i];
      if (family === 'IPv4' && ipFamilyOf(ip) === 'IPv6') errs.push(invalidValue(index('spec.clusterIPs', i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (family === 'IPv6' && ipFamilyOf(ip) !== 'IPv6') errs.push(invalidValue(index('spec.clusterIPs', i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/** The duplicate (protocol, port) key as kube prints it: the internal ServicePort, Go field names. */
const servicePortKey = (protocol: string, port: unknown): unknown => ({ Name: '', Protocol: protocol, AppProtocol: null, Port: port ?? 0, TargetPort: 0, NodePort: 0 });

function validateNodePortsAndPorts(spec: JsonObject, type: string): FieldError[] {
  const errs: FieldError[] = [];
  const ports = objectsAt(spec, 'ports');
  if (type === 'ClusterIP') {
    for (const [p, i] of ports) if (typeof p.nodePort === 'number' && p.nodePort !== 0) errs.push(forbidden(child(index('spec.ports', i), 'nodePort'), "may not be used when `type` is 'ClusterIP'"));
  }
  const nodePorts = new Set<string>();
  for (const [p, i] of ports) {
    if (typeof p.nodePort !== 'number' || p.nodePort === 0) continue;
    const key = `${stringAt(p, 'protocol')}/${p.nodePort}`;
    if (nodePorts.has(key)) errs.push(duplicate(child(index('spec.ports', i), 'nodePort'), p.nodePort));
    nodePorts.add(key);
  }
  const seen = new Set<string>();
  for (const [p, i] of ports) {
    const key = `${stringAt(p, 'protocol')}/${String(p.port)}`;
    if (seen.has(key)) errs.push(duplicate(index('spec.ports', i), servicePortKey(stringAt(p, 'protocol'), p.port)));
    seen.add(key);
  }
  return errs;
}

/**
 * `validateLoadBalancerClassField`: fixed once set on a LoadBalancer, a qualified name, and only
 * on LoadBalancers.
 *
 * @example
 * ```ts
 * validateLoadBalancerClass({ spec: { type: 'ClusterIP', loadBalancerClass: 'x' } }, undefined);
 * ```
 */
export function validateLoadBalancerClass(svc: JsonObject, old: JsonObject | undefined): FieldError[] {
  const spec = objectAt(svc, 'spec') ?? {};
  const lbc = spec.loadBalancerClass;
  const errs: FieldError[] = [];
  if (old && serviceType(old) === 'LoadBalancer' && serviceType(svc) === 'LoadBalancer' && (objectAt(old, 'spec')?.loadBalancerClass ?? null) !== (lbc ?? null)) {
    errs.push(invalidValue('spec.loadBalancerClass', lbc ?? null, 'may not change once set'));
  }
  if (typeof lbc === 'string') {
    if (serviceType(svc) === 'LoadBalancer') errs.push(...invalidEach('spec.loadBalancerClass', lbc, isQualifiedName(lbc)));
    else errs.push(forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
  }
  return errs;
}

function validateTrafficPolicies(svc: JsonObject, spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const type = serviceType(svc);
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts !== null && type !== 'LoadBalancer') {
    errs.push(forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  if (type === 'LoadBalancer' && (spec.allocateLoadBalancerNodePorts === undefined || spec.allocateLoadBalancerNodePorts === null)) errs.push(required('allocateLoadBalancerNodePorts'));
  errs.push(...validateLoadBalancerClass(svc, undefined));
  const etp = stringAt(spec, 'externalTrafficPolicy');
  if (!externallyAccessible(svc)) {
    if (etp !== '') errs.push(invalidValue('spec.externalTrafficPolicy', etp, 'may only be set for externally-accessible services'));
  } else if (etp === '') errs.push(required('spec.externalTrafficPolicy'));
  else if (etp !== 'Cluster' && etp !== 'Local') errs.push(notSupported('spec.externalTrafficPolicy', etp, ['Cluster', 'Local']));
  const hc = typeof spec.healthCheckNodePort === 'number' ? spec.healthCheckNodePort : 0;
  if (!needsHealthCheck(svc)) {
    if (hc !== 0) errs.push(invalidValue('spec.healthCheckNodePort', hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hc !== 0) {
    // An unset port is allocated (kube allocates before it validates), so only a set one is checked.
    errs.push(...invalidEach('spec.healthCheckNodePort', hc, isValidPortNum(hc)));
  }
  const itp = spec.internalTrafficPolicy;
  if ((itp === undefined || itp === null) && (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP')) errs.push(required('spec.internalTrafficPolicy'));
  if (typeof itp === 'string' && itp !== 'Cluster' && itp !== 'Local') errs.push(notSupported('spec.internalTrafficPolicy', itp, ['Cluster', 'Local']));
  const td = spec.trafficDistribution;
  const tds = ['PreferClose', 'PreferSameZone', 'PreferSameNode'];
  if (typeof td === 'string' && !tds.includes(td)) errs.push(notSupported('spec.trafficDistribution', td, tds));
  return errs;
}

/**
 * `validateService` (create and update share it).
 *
 * @example
 * ```ts
 * validateService({ spec: { type: 'Foo', ports: [] } }, undefined);
 * ```
 */
export function validateService(svc: JsonObject, old: JsonObject | undefined): FieldError[] {
  const spec = objectAt(svc, 'spec') ?? {};
  const errs = [...validateTypeSpecific(svc, spec), ...validatePorts(spec)];
  errs.push(...validateLabels(spec.selector, 'spec.selector'));
  errs.push(...validateAffinity(spec));
  errs.push(...validateClusterIPFields(svc, old));
  const oldExternal = old ? listAt(objectAt(old, 'spec'), 'externalIPs') : [];
  listAt(spec, 'externalIPs').forEach((ip, i) => {
    const value = typeof ip === 'string' ? ip : '';
    const legacy = validateLegacyIP(index('spec.externalIPs', i), value, oldExternal.filter((v): v is string => typeof v === 'string'));
    errs.push(...(legacy.length > 0 ? legacy : validateEndpointIP(value, index('spec.externalIPs', i))));
  });
  const type = serviceType(svc);
  if (type === '') errs.push(required('spec.type'));
  else if (!TYPES.includes(type)) errs.push(notSupported('spec.type', type, TYPES));
  errs.push(...validateNodePortsAndPorts(spec, type));
  if (listAt(spec, 'loadBalancerSourceRanges').length > 0 && type !== 'LoadBalancer') {
    errs.push(forbidden('spec.LoadBalancerSourceRanges', "may only be used when `type` is 'LoadBalancer'"));
  }
  errs.push(...validateTrafficPolicies(svc, spec));
  return errs;
}
