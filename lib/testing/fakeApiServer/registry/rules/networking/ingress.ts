import { isIP } from 'node:net';
import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { child, index, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { invalidEach } from '../support/errors.js';
import { isObject, listAt, objectAt, objectsAt, stringAt } from '../support/json.js';
import { isDNS1035Label, isDNS1123Subdomain, isPathSegmentName, isValidPortName, isValidPortNum, isWildcardDNS1123Subdomain } from '../support/names.js';

// Ingress (networking.k8s.io/v1): no defaults in v1 (pathType has none); ValidateIngressSpec
// (rules or a default backend, hosts, paths by path type, backends, TLS) and the class
// annotation that must agree with `ingressClassName`.

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];

function validateBackend(backend: JsonObject, path: string): FieldError[] {
  const resource = objectAt(backend, 'resource');
  const service = objectAt(backend, 'service');
  if (resource && service) return [invalidValue(path, '', 'cannot set both resource and service backends')];
  if (resource) {
    const p = child(path, 'resource');
    const errs: FieldError[] = [];
    if (typeof resource.apiGroup === 'string') errs.push(...invalidEach(child(p, 'apiGroup'), resource.apiGroup, isDNS1123Subdomain(resource.apiGroup)));
    for (const key of ['kind', 'name']) {
      const v = stringAt(resource, key);
      if (v === '') errs.push(required(child(p, key), `${key} is required`));
      else errs.push(...invalidEach(child(p, key), v, isPathSegmentName(v)));
    }
    return errs;
  }
  if (!service) return [invalidValue(path, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const name = stringAt(service, 'name');
  const namePath = child(child(path, 'service'), 'name');
  if (name === '') errs.push(required(namePath));
  else errs.push(...invalidEach(namePath, name, isDNS1035Label(name)));
  const port = objectAt(service, 'port') ?? {};
  const portName = stringAt(port, 'name');
  const portNumber = typeof port.number === 'number' ? port.number : 0;
  const portPath = child(child(path, 'service'), 'port');
  if (portName !== '' && portNumber !== 0) errs.push(invalidValue(path, '', 'cannot set both port name & port number'));
  else if (portName !== '') errs.push(...invalidEach(child(portPath, 'name'), portName, isValidPortName(portName)));
  else if (portNumber !== 0) errs.push(...invalidEach(child(portPath, 'number'), portNumber, isValidPortNum(portNumber)));
  else errs.push(required(path, 'port name or number is required'));
  return errs;
}

function validatePath(p: JsonObject, path: string): FieldError[] {
  const pathType = p.pathType;
  if (typeof pathType !== 'string') return [required(child(path, 'pathType'), 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = stringAt(p, 'path');
  const valuePath = child(path, 'path');
  if (pathType === 'Exact' || pathType === 'Prefix') {
    if (!value.startsWith('/')) errs.push(invalidValue(valuePath, value, 'must be an absolute path'));
    for (const seq of INVALID_SEQUENCES) if (value.includes(seq)) errs.push(invalidValue(valuePath, value, `must not contain '${seq}'`));
    for (const suffix of INVALID_SUFFIXES) if (value.endsWith(suffix)) errs.push(invalidValue(valuePath, value, `cannot end with '${suffix}'`));
  } else if (pathType === 'ImplementationSpecific') {
    if (value !== '' && !value.startsWith('/')) errs.push(invalidValue(valuePath, value, 'must be an absolute path'));
  } else errs.push(notSupported(child(path, 'pathType'), pathType, PATH_TYPES));
  return [...errs, ...validateBackend(objectAt(p, 'backend') ?? {}, child(path, 'backend'))];
}

function validateRules(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const [rule, i] of objectsAt(spec, 'rules')) {
    const p = index('spec.rules', i);
    const host = stringAt(rule, 'host');
    if (host !== '') {
      if (isIP(host) !== 0) errs.push(invalidValue(child(p, 'host'), host, 'must be a DNS name, not an IP address'));
      errs.push(...invalidEach(child(p, 'host'), host, host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host)));
    }
    const http = objectAt(rule, 'http');
    if (!http) continue;
    const httpPath = child(p, 'http');
    if (listAt(http, 'paths').length === 0) errs.push(required(child(httpPath, 'paths')));
    for (const [path, j] of objectsAt(http, 'paths')) errs.push(...validatePath(path, index(child(httpPath, 'paths'), j)));
  }
  return errs;
}

function validateTLS(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const [tls, i] of objectsAt(spec, 'tls')) {
    const p = index('spec.tls', i);
    listAt(tls, 'hosts').forEach((host, j) => {
      if (typeof host !== 'string') return;
      errs.push(...invalidEach(index(child(p, 'hosts'), j), host, host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host)));
    });
    const secretName = stringAt(tls, 'secretName');
    if (secretName !== '') errs.push(...invalidEach(child(p, 'secretName'), secretName, isDNS1123Subdomain(secretName)));
  }
  return errs;
}

function validateIngress(ing: JsonObject): FieldError[] {
  const spec = objectAt(ing, 'spec') ?? {};
  const errs: FieldError[] = [];
  if (listAt(spec, 'rules').length === 0 && !isObject(spec.defaultBackend)) errs.push(invalidValue('spec', spec.rules ?? null, 'either `defaultBackend` or `rules` must be specified'));
  const defaultBackend = objectAt(spec, 'defaultBackend');
  if (defaultBackend) errs.push(...validateBackend(defaultBackend, 'spec.defaultBackend'));
  errs.push(...validateRules(spec), ...validateTLS(spec));
  if (typeof spec.ingressClassName === 'string') errs.push(...invalidEach('spec.ingressClassName', spec.ingressClassName, isDNS1123Subdomain(spec.ingressClassName)));
  return errs;
}

function validateIngressCreate(ing: JsonObject): FieldError[] {
  const errs = validateIngress(ing);
  const annotation = objectAt(objectAt(ing, 'metadata'), 'annotations')?.['kubernetes.io/ingress.class'];
  const className = objectAt(ing, 'spec')?.ingressClassName;
  if (typeof annotation === 'string' && typeof className === 'string' && annotation !== className) {
    errs.push(invalidValue('annotations.kubernetes.io/ingress.class', annotation, 'must match `ingressClassName` when both are specified'));
  }
  return errs;
}

/**
 * The Ingress' rules.
 *
 * @example
 * ```ts
 * ingressRules.validateCreate?.({ spec: {} }); // [spec: Invalid value: null: either `defaultBackend` or `rules` must be specified]
 * ```
 */
export const ingressRules: TypeRules = {
  validateCreate: validateIngressCreate,
  validateUpdate: (ing) => validateIngress(ing),
};
