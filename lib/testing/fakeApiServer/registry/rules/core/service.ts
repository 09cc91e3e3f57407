import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { forbidden, index, invalidValue } from '../../../schema/fieldErrors.js';
import { cloneJson, listAt, objectAt, stringAt } from '../support/json.js';
import { allocateService } from './serviceAllocation.js';
import { defaultService, needsHealthCheck, prepareService, serviceType } from './serviceDefaults.js';
import { validateLoadBalancerClass, validateService } from './serviceValidation.js';

// Service (core/v1): SetDefaults_Service; the strategy's fix-ups and the allocation of cluster
// IPs and node ports (from `allocate`, as kube's BeginCreate/BeginUpdate, which run before
// validation); ValidateServiceCreate / ValidateServiceUpdate, run on a prepared copy so they
// give the same answer whether the pipeline allocates first or validates first.

function prepared(svc: JsonObject, old: JsonObject | undefined): JsonObject {
  const copy = cloneJson(svc);
  prepareService(copy, old);
  return copy;
}

/** validateUpgradeDowngradeClusterIPs: the primary cluster IP never changes; a release needs SingleStack. */
function clusterIPsUpdate(svc: JsonObject, old: JsonObject): FieldError[] {
  if (serviceType(svc) === 'ExternalName' || serviceType(old) === 'ExternalName') return [];
  const ips = listAt(objectAt(svc, 'spec'), 'clusterIPs');
  const oldIPs = listAt(objectAt(old, 'spec'), 'clusterIPs');
  const headless = (l: unknown[]): boolean => l[0] === 'None';
  if (headless(ips) && headless(oldIPs)) return [];
  if (ips.length === oldIPs.length) {
    return oldIPs.flatMap((ip, i) => (ip !== ips[i] ? [invalidValue(index('spec.clusterIPs', i), ips, 'may not change once set')] : []));
  }
  const errs: FieldError[] = [];
  if (oldIPs.length > ips.length) {
    if (ips.length === 0) errs.push(invalidValue(index('spec.clusterIPs', 0), ips, 'primary clusterIP can not be unset'));
    if (oldIPs.length > 0 && ips.length > 0 && ips[0] !== oldIPs[0]) errs.push(invalidValue(index('spec.clusterIPs', 0), ips, 'may not change once set'));
    const policy = objectAt(svc, 'spec')?.ipFamilyPolicy;
    if (ips.length === 1 && policy !== 'SingleStack') {
      errs.push(invalidValue('spec.ipFamilyPolicy', policy ?? null, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) errs.push(invalidValue(index('spec.clusterIPs', 0), ips, 'may not change once set'));
  return errs;
}

function validateServiceUpdate(svc: JsonObject, old: JsonObject): FieldError[] {
  const s = prepared(svc, old);
  const errs = clusterIPsUpdate(s, old);
  errs.push(...validateLoadBalancerClass(s, old));
  const spec = objectAt(s, 'spec') ?? {};
  const oldSpec = objectAt(old, 'spec') ?? {};
  if (needsHealthCheck(old) && needsHealthCheck(s) && spec.healthCheckNodePort !== oldSpec.healthCheckNodePort) {
    errs.push(forbidden('spec.healthCheckNodePort', 'field is immutable'));
  }
  return [...errs, ...validateService(s, old)];
}

/**
 * The Service's rules.
 *
 * @example
 * ```ts
 * const svc = { apiVersion: 'v1', kind: 'Service', spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } };
 * serviceRules.defaults?.(svc);
 * serviceRules.allocate?.(svc, undefined, allocators); // svc.spec.clusterIP from the service CIDR
 * ```
 */
export const serviceRules: TypeRules = {
  defaults: defaultService,
  validateCreate: (svc) => validateService(prepared(svc, undefined), undefined),
  validateUpdate: validateServiceUpdate,
  allocate: (svc, old, allocators) => {
    prepareService(svc, old);
    return allocateService(svc, old, allocators);
  },
  warnings: (svc) => serviceWarnings(svc),
};

function serviceWarnings(svc: JsonObject): string[] {
  const spec = objectAt(svc, 'spec') ?? {};
  const warnings: string[] = [];
  if (stringAt(spec, 'clusterIP') === 'None') {
    if (stringAt(spec, 'loadBalancerIP') !== '') warnings.push('spec.loadBalancerIP is ignored for headless services');
    if (listAt(spec, 'externalIPs').length > 0) warnings.push('spec.externalIPs is ignored for headless services');
    // kube checks the defaulted value, so every headless Service gets this one.
    if (stringAt(spec, 'sessionAffinity') !== '') warnings.push('spec.SessionAffinity is ignored for headless services');
  }
  const type = serviceType(svc);
  if (type === 'ExternalName' && listAt(spec, 'externalIPs').length > 0) warnings.push('spec.externalIPs is ignored when spec.type is "ExternalName"');
  if (type !== 'ExternalName' && stringAt(spec, 'externalName') !== '') warnings.push('spec.externalName is ignored when spec.type is not "ExternalName"');
  return warnings;
}
