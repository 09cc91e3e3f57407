import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import { child, duplicate, forbidden, index, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { invalidEach } from '../support/errors.js';
import { listAt, objectAt, objectsAt, stringAt } from '../support/json.js';
import { validateLabels } from '../support/labels.js';
import { inclusiveRangeError, isDNS1123Label, isDNS1123Subdomain } from '../support/names.js';
import { validateAffinity } from './affinityValidation.js';
import { validateContainerCommon, validateProbesAndLifecycle } from './containerValidation.js';
import { validateTolerations } from './tolerations.js';
import { validateVolumes } from './volumeValidation.js';

// core validation's ValidatePodSpec for Pods and pod templates alike: containers (regular and
// init), volumes, policies, scheduling fields. Kube's order of causes is kept.

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const MAX_INT32 = 2147483647;

const PROBES_AND_HOOKS = ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'];

/** `AccumulateUniqueHostPorts`: a hostPort (per protocol and host IP) used twice. */
function hostPortConflicts(containers: ReadonlyArray<[JsonObject, number]>, path: string): FieldError[] {
  const seen = new Set<string>();
  const errs: FieldError[] = [];
  for (const [c, ci] of containers) {
    for (const [port, pi] of objectsAt(c, 'ports')) {
      const hostPort = typeof port.hostPort === 'number' ? port.hostPort : 0;
      if (hostPort === 0) continue;
      const key = `${stringAt(port, 'protocol')}/${stringAt(port, 'hostIP')}/${hostPort}`;
      if (seen.has(key)) errs.push(duplicate(child(index(child(index(path, ci), 'ports'), pi), 'hostPort'), key));
      else seen.add(key);
    }
  }
  return errs;
}

function validateContainers(spec: JsonObject, path: string, volumes: ReadonlySet<string>): FieldError[] {
  const containers = objectsAt(spec, 'containers');
  if (listAt(spec, 'containers').length === 0) return [required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const [c, i] of containers) {
    const p = index(path, i);
    errs.push(...validateContainerCommon(c, p, volumes));
    const name = stringAt(c, 'name');
    if (names.has(name)) errs.push(duplicate(child(p, 'name'), name));
    else names.add(name);
    errs.push(...validateProbesAndLifecycle(c, p));
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) errs.push(forbidden(child(p, 'restartPolicy'), 'may not be set for non-init containers'));
  }
  errs.push(...hostPortConflicts(containers, path));
  return errs;
}

function validateInitContainers(spec: JsonObject, path: string, volumes: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(objectsAt(spec, 'containers').map(([c]) => stringAt(c, 'name')));
  for (const [c, i] of objectsAt(spec, 'initContainers')) {
    const p = index(path, i);
    errs.push(...validateContainerCommon(c, p, volumes));
    const restartPolicy = c.restartPolicy;
    const restartAlways = restartPolicy === 'Always';
    if (restartPolicy !== undefined && restartPolicy !== null && !restartAlways) errs.push(notSupported(child(p, 'restartPolicy'), restartPolicy, ['Always']));
    const name = stringAt(c, 'name');
    if (names.has(name)) errs.push(duplicate(child(p, 'name'), name));
    else if (name !== '') names.add(name);
    errs.push(...hostPortConflicts([[c, 0]], path));
    if (restartAlways) errs.push(...validateProbesAndLifecycle(c, p));
    else {
      for (const key of PROBES_AND_HOOKS) {
        if (c[key] !== undefined && c[key] !== null) errs.push(forbidden(child(p, key), 'may not be set for init containers without restartPolicy=Always'));
      }
    }
  }
  return errs;
}

function validatePolicies(spec: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const restartPolicy = stringAt(spec, 'restartPolicy');
  if (restartPolicy === '') errs.push(required(child(path, 'restartPolicy')));
  else if (!RESTART_POLICIES.includes(restartPolicy)) errs.push(notSupported(child(path, 'restartPolicy'), restartPolicy, RESTART_POLICIES));
  const dnsPolicy = stringAt(spec, 'dnsPolicy');
  if (dnsPolicy === '') errs.push(required(child(path, 'dnsPolicy')));
  else if (!DNS_POLICIES.includes(dnsPolicy)) errs.push(notSupported(child(path, 'dnsPolicy'), dnsPolicy, DNS_POLICIES));
  return errs;
}

function validateDNSConfig(spec: JsonObject, path: string): FieldError[] {
  if (stringAt(spec, 'dnsPolicy') !== 'None') return [];
  const dnsConfig = objectAt(spec, 'dnsConfig');
  if (!dnsConfig) return [required(child(path, 'dnsConfig'), 'must provide `dnsConfig` when `dnsPolicy` is None')];
  if (listAt(dnsConfig, 'nameservers').length === 0) {
    return [required(child(child(path, 'dnsConfig'), 'nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  return [];
}

function validateNames(spec: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [key, check] of [
    ['serviceAccountName', isDNS1123Subdomain],
    ['nodeName', isDNS1123Subdomain],
  ] as const) {
    const v = stringAt(spec, key);
    if (v !== '') errs.push(...invalidEach(child(path, key), v, check(v)));
  }
  const deadline = spec.activeDeadlineSeconds;
  if (typeof deadline === 'number' && (deadline < 1 || deadline > MAX_INT32)) {
    errs.push(invalidValue(child(path, 'activeDeadlineSeconds'), deadline, inclusiveRangeError(1, MAX_INT32)));
  }
  for (const key of ['hostname', 'subdomain']) {
    const v = stringAt(spec, key);
    if (v !== '') errs.push(...invalidEach(child(path, key), v, isDNS1123Label(v)));
  }
  return errs;
}

/**
 * `ValidatePodSpec` for a Pod's or a template's spec (`path` is `spec` or `spec.template.spec`).
 *
 * @example
 * ```ts
 * validatePodSpec({ containers: [] }, 'spec'); // [spec.terminationGracePeriodSeconds: Required value, spec.containers: Required value, ...]
 * ```
 */
export function validatePodSpec(spec: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null) {
    errs.push(required(child(path, 'terminationGracePeriodSeconds')));
  }
  const volumes = validateVolumes(spec, child(path, 'volumes'));
  errs.push(...volumes.errors);
  errs.push(...validateContainers(spec, child(path, 'containers'), volumes.names));
  errs.push(...validateInitContainers(spec, child(path, 'initContainers'), volumes.names));
  errs.push(...validatePolicies(spec, path));
  errs.push(...validateLabels(spec.nodeSelector, child(path, 'nodeSelector')));
  errs.push(...validateAffinity(spec.affinity, child(path, 'affinity')));
  errs.push(...validateDNSConfig(spec, path));
  errs.push(...validateNames(spec, path));
  errs.push(...validateTolerations(spec, child(path, 'tolerations')));
  const priorityClassName = stringAt(spec, 'priorityClassName');
  if (priorityClassName !== '') errs.push(...invalidEach(child(path, 'priorityClassName'), priorityClassName, isDNS1123Subdomain(priorityClassName)));
  return errs;
}
