import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import { child, forbidden, index, invalidValue, required } from '../../../schema/fieldErrors.js';
import { invalidEach, IS_NEGATIVE } from '../support/errors.js';
import { isObject, objectAt } from '../support/json.js';
import { isQualifiedName } from '../support/names.js';
import { compareQuantities, formatQuantity, isWholeQuantity, parseQuantity, type Quantity } from '../support/quantities.js';

// A container's `resources` (core validation's validateResourceRequirements with
// validateContainerResourceName): names, quantities, requests <= limits, and the rules for
// resources that cannot be overcommitted (hugepages and extended resources).

const STANDARD_CONTAINER = new Set(['cpu', 'memory', 'ephemeral-storage']);
/** helper.IsStandardResourceName's list (quota and limit names among them). */
const STANDARD = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory',
  'limits.ephemeral-storage', 'pods', 'quota', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps',
  'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);
const isHugePages = (name: string): boolean => name.startsWith('hugepages-');
const isNative = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
const isExtended = (name: string): boolean => !isNative(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;
/** `IsOvercommitAllowed`: native resources other than hugepages. */
const overcommitAllowed = (name: string): boolean => isNative(name) && !isHugePages(name);

function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = invalidEach(path, name, isQualifiedName(name));
  if (errs.length > 0) return errs;
  if (!name.includes('/')) {
    if (STANDARD_CONTAINER.has(name) || isHugePages(name)) return [];
    const standard = STANDARD.has(name) || name.startsWith('requests.hugepages-');
    return [...(standard ? [] : [invalidValue(path, name, 'must be a standard resource type or fully qualified')]), invalidValue(path, name, 'must be a standard resource for containers')];
  }
  if (!isNative(name) && !isExtended(name)) return [invalidValue(path, name, "doesn't follow extended resource name standard")];
  return [];
}

/** The stored (canonical) quantity; defaulting already made every value parse. */
const quantityOf = (v: unknown): Quantity | undefined => (typeof v === 'string' || typeof v === 'number' ? parseQuantity(v) : undefined);

function validateQuantity(name: string, q: Quantity, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (q.negative) errs.push(invalidValue(path, formatQuantity(q), IS_NEGATIVE));
  if (!isNative(name) && !isWholeQuantity(q)) errs.push(invalidValue(path, formatQuantity(q), 'must be an integer'));
  return errs;
}

/**
 * `ValidateContainerResourceRequirements` for `container.resources`.
 *
 * @example
 * ```ts
 * validateResources({ resources: { limits: { cpu: '1' }, requests: { cpu: '2' } } }, 'spec.containers[0]');
 * // [spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1]
 * ```
 */
export function validateResources(container: JsonObject, path: string): FieldError[] {
  const resources = objectAt(container, 'resources');
  const limits = objectAt(resources, 'limits') ?? {};
  const requests = objectAt(resources, 'requests') ?? {};
  const resPath = child(path, 'resources');
  const limPath = child(resPath, 'limits');
  const reqPath = child(resPath, 'requests');
  const errs: FieldError[] = [];
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, value] of Object.entries(limits)) {
    const p = index(limPath, name);
    errs.push(...validateContainerResourceName(name, p));
    const q = quantityOf(value);
    if (q) errs.push(...validateQuantity(name, q, p));
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const [name, value] of Object.entries(requests)) {
    const p = index(reqPath, name);
    errs.push(...validateContainerResourceName(name, p));
    const q = quantityOf(value);
    if (q) errs.push(...validateQuantity(name, q, p));
    const limit = quantityOf(limits[name]);
    if (q && limit) {
      const cmp = compareQuantities(q, limit);
      if (cmp !== 0 && !overcommitAllowed(name)) errs.push(invalidValue(reqPath, formatQuantity(q), `must be equal to ${name} limit of ${formatQuantity(limit)}`));
      else if (cmp > 0) errs.push(invalidValue(reqPath, formatQuantity(q), `must be less than or equal to ${name} limit of ${formatQuantity(limit)}`));
    } else if (!overcommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (!cpuOrMemory && hugePages) errs.push(forbidden(resPath, 'HugePages require cpu or memory'));
  if (isObject(resources) && Array.isArray(resources.claims) && resources.claims.length > 0) {
    resources.claims.forEach((claim, i) => {
      if (!isObject(claim) || typeof claim.name !== 'string' || claim.name === '') errs.push(required(index(child(resPath, 'claims'), i)));
    });
  }
  return errs;
}
