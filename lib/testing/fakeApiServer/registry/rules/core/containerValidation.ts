import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import { child, duplicate, forbidden, index, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { invalidEach, nonNegative, notFound } from '../support/errors.js';
import { validatePortNumOrName } from '../support/intOrString.js';
import { objectAt, objectsAt, stringAt } from '../support/json.js';
import { isDNS1123Label, isValidPortName, isValidPortNum } from '../support/names.js';
import { validateEnv, validateEnvFrom } from './envValidation.js';
import { validateResources } from './resourceValidation.js';

// What core validation checks in every container (validateContainerCommon) and in regular
// containers' probes and lifecycle hooks (validateContainers); pod-level rules are in
// podSpecValidation.ts.

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];

function validatePorts(container: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  const portsPath = child(path, 'ports');
  for (const [port, i] of objectsAt(container, 'ports')) {
    const p = index(portsPath, i);
    const name = stringAt(port, 'name');
    if (name !== '') {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) errs.push(...invalidEach(child(p, 'name'), name, msgs));
      else if (names.has(name)) errs.push(duplicate(child(p, 'name'), name));
      else names.add(name);
    }
    const containerPort = typeof port.containerPort === 'number' ? port.containerPort : 0;
    if (containerPort === 0) errs.push(required(child(p, 'containerPort')));
    else errs.push(...invalidEach(child(p, 'containerPort'), containerPort, isValidPortNum(containerPort)));
    if (typeof port.hostPort === 'number' && port.hostPort !== 0) errs.push(...invalidEach(child(p, 'hostPort'), port.hostPort, isValidPortNum(port.hostPort)));
    const protocol = stringAt(port, 'protocol');
    if (protocol === '') errs.push(required(child(p, 'protocol')));
    else if (!PROTOCOLS.includes(protocol)) errs.push(notSupported(child(p, 'protocol'), protocol, PROTOCOLS));
  }
  return errs;
}

function validateVolumeMounts(container: JsonObject, path: string, volumeNames: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const mountPoints = new Set<string>();
  const mountsPath = child(path, 'volumeMounts');
  for (const [mount, i] of objectsAt(container, 'volumeMounts')) {
    const p = index(mountsPath, i);
    const name = stringAt(mount, 'name');
    const mountPath = stringAt(mount, 'mountPath');
    if (name === '') errs.push(required(child(p, 'name')));
    if (!volumeNames.has(name)) errs.push(notFound(child(p, 'name'), name));
    if (mountPath === '') errs.push(required(child(p, 'mountPath')));
    if (mountPoints.has(mountPath)) errs.push(invalidValue(child(p, 'mountPath'), mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    const subPath = stringAt(mount, 'subPath');
    const subPathExpr = stringAt(mount, 'subPathExpr');
    if (subPath !== '' && subPathExpr !== '') errs.push(invalidValue(child(p, 'subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
  }
  return errs;
}

function validateHandler(handler: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let handlers = 0;
  for (const kind of ['exec', 'httpGet', 'tcpSocket', 'grpc', 'sleep']) {
    const h = objectAt(handler, kind);
    if (!h) continue;
    if (handlers > 0) {
      errs.push(forbidden(child(path, kind), 'may not specify more than 1 handler type'));
      continue;
    }
    handlers++;
    const p = child(path, kind);
    if (kind === 'exec' && !(Array.isArray(h.command) && h.command.length > 0)) errs.push(required(child(p, 'command')));
    if (kind === 'httpGet') {
      if (stringAt(h, 'path') === '') errs.push(required(child(p, 'path')));
      errs.push(...validatePortNumOrName(h.port, child(p, 'port')));
      const scheme = stringAt(h, 'scheme');
      if (scheme !== 'HTTP' && scheme !== 'HTTPS') errs.push(notSupported(child(p, 'scheme'), scheme, ['HTTP', 'HTTPS']));
    }
    if (kind === 'tcpSocket') errs.push(...validatePortNumOrName(h.port, child(p, 'port')));
    if (kind === 'grpc') errs.push(...validatePortNumOrName(typeof h.port === 'number' ? h.port : 0, child(p, 'port')));
  }
  if (handlers === 0) errs.push(required(path, 'must specify a handler type'));
  return errs;
}

function validateProbe(container: JsonObject, key: string, path: string): FieldError[] {
  const probe = objectAt(container, key);
  if (!probe) return [];
  const p = child(path, key);
  const errs = validateHandler(probe, p);
  for (const field of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    errs.push(...nonNegative(child(p, field), probe[field]));
  }
  const grace = probe.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace <= 0) errs.push(invalidValue(child(p, 'terminationGracePeriodSeconds'), grace, 'must be greater than 0'));
  if ((key === 'livenessProbe' || key === 'startupProbe') && probe.successThreshold !== 1) {
    errs.push(invalidValue(child(p, 'successThreshold'), probe.successThreshold ?? 0, 'must be 1'));
  }
  if (key === 'readinessProbe' && probe.terminationGracePeriodSeconds !== undefined && probe.terminationGracePeriodSeconds !== null) {
    errs.push(invalidValue(child(p, 'terminationGracePeriodSeconds'), probe.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
  }
  return errs;
}

/**
 * `validateContainerCommon`: name, image, termination message policy, ports, env, mounts,
 * pull policy and resources of any container.
 *
 * @example
 * ```ts
 * validateContainerCommon({ name: 'web' }, 'spec.containers[0]', new Set());
 * // [spec.containers[0].image: Required value]
 * ```
 */
export function validateContainerCommon(container: JsonObject, path: string, volumeNames: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const name = stringAt(container, 'name');
  if (name === '') errs.push(required(child(path, 'name')));
  else errs.push(...invalidEach(child(path, 'name'), name, isDNS1123Label(name)));
  if (stringAt(container, 'image') === '') errs.push(required(child(path, 'image')));
  const tmp = stringAt(container, 'terminationMessagePolicy');
  if (tmp === '') errs.push(required(child(path, 'terminationMessagePolicy')));
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') errs.push(notSupported(child(path, 'terminationMessagePolicy'), tmp, ['File', 'FallbackToLogsOnError']));
  errs.push(...validatePorts(container, path));
  errs.push(...validateEnv(container, path));
  errs.push(...validateEnvFrom(container, path));
  errs.push(...validateVolumeMounts(container, path, volumeNames));
  const pull = stringAt(container, 'imagePullPolicy');
  if (pull === '') errs.push(required(child(path, 'imagePullPolicy')));
  else if (!PULL_POLICIES.includes(pull)) errs.push(notSupported(child(path, 'imagePullPolicy'), pull, PULL_POLICIES));
  errs.push(...validateResources(container, path));
  return errs;
}

/**
 * The probes and lifecycle hooks of a regular (or restartable init) container.
 *
 * @example
 * ```ts
 * validateProbesAndLifecycle({ livenessProbe: {} }, 'spec.containers[0]');
 * // [spec.containers[0].livenessProbe: Required value: must specify a handler type, ...]
 * ```
 */
export function validateProbesAndLifecycle(container: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const lifecycle = objectAt(container, 'lifecycle');
  for (const hook of ['postStart', 'preStop']) {
    const h = objectAt(lifecycle, hook);
    if (h) errs.push(...validateHandler(h, child(child(path, 'lifecycle'), hook)));
  }
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) errs.push(...validateProbe(container, probe, path));
  return errs;
}
