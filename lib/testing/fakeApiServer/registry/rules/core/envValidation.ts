import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import { child, index, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { invalidEach } from '../support/errors.js';
import { isObject, objectAt, objectsAt, stringAt } from '../support/json.js';
import { isConfigMapKey, isDNS1123Subdomain, isEnvVarName, isQualifiedName } from '../support/names.js';

// A container's `env` and `envFrom` (core validation's ValidateEnv, validateEnvVarValueFrom,
// ValidateEnvFrom), as kube 1.34 checks them (relaxed variable names, no fileKeyRef: EnvFiles
// is alpha and off).

const FIELD_PATHS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs'];
const RESOURCE_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];

function validateKeySelector(s: JsonObject, path: string): FieldError[] {
  const name = stringAt(s, 'name');
  const key = stringAt(s, 'key');
  return [
    ...invalidEach(child(path, 'name'), name, isDNS1123Subdomain(name)),
    ...(key === '' ? [required(child(path, 'key'))] : invalidEach(child(path, 'key'), key, isConfigMapKey(key))),
  ];
}

function validateFieldRef(fs: JsonObject, path: string): FieldError[] {
  if (stringAt(fs, 'apiVersion') === '') return [required(child(path, 'apiVersion'))];
  const fieldPath = stringAt(fs, 'fieldPath');
  if (fieldPath === '') return [required(child(path, 'fieldPath'))];
  const subscripted = /^(metadata\.(?:annotations|labels))\['(.*)'\]$/.exec(fieldPath);
  if (subscripted) {
    const key = subscripted[1] === 'metadata.annotations' ? subscripted[2].toLowerCase() : subscripted[2];
    return invalidEach(path, key, isQualifiedName(key));
  }
  return FIELD_PATHS.includes(fieldPath) ? [] : [notSupported(child(path, 'fieldPath'), fieldPath, FIELD_PATHS)];
}

function validateResourceFieldRef(fs: JsonObject, path: string): FieldError[] {
  const resource = stringAt(fs, 'resource');
  if (resource === '') return [required(child(path, 'resource'))];
  if (RESOURCE_PATHS.includes(resource) || resource.startsWith('requests.hugepages-') || resource.startsWith('limits.hugepages-')) return [];
  return [notSupported(child(path, 'resource'), resource, RESOURCE_PATHS)];
}

function validateValueFrom(env: JsonObject, path: string): FieldError[] {
  const valueFrom = objectAt(env, 'valueFrom');
  if (!valueFrom) return [];
  const checks: ReadonlyArray<[string, (s: JsonObject, p: string) => FieldError[]]> = [
    ['fieldRef', validateFieldRef],
    ['resourceFieldRef', validateResourceFieldRef],
    ['configMapKeyRef', validateKeySelector],
    ['secretKeyRef', validateKeySelector],
  ];
  const errs: FieldError[] = [];
  let sources = 0;
  for (const [key, check] of checks) {
    const ref = objectAt(valueFrom, key);
    if (!ref) continue;
    sources++;
    errs.push(...check(ref, child(path, key)));
  }
  if (sources === 0) errs.push(invalidValue(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (stringAt(env, 'value') !== '') errs.push(invalidValue(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) errs.push(invalidValue(path, '', 'may not have more than one field specified at a time'));
  return errs;
}

/**
 * `ValidateEnv`: every variable named, its name printable ASCII without `=`, at most one
 * `valueFrom` source and not with `value`.
 *
 * @example
 * ```ts
 * validateEnv({ env: [{ value: 'x' }] }, 'spec.containers[0]'); // [spec.containers[0].env[0].name: Required value]
 * ```
 */
export function validateEnv(container: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const envPath = child(path, 'env');
  for (const [env, i] of objectsAt(container, 'env')) {
    const p = index(envPath, i);
    const name = stringAt(env, 'name');
    if (name === '') errs.push(required(child(p, 'name')));
    else errs.push(...invalidEach(child(p, 'name'), name, isEnvVarName(name)));
    errs.push(...validateValueFrom(env, child(p, 'valueFrom')));
  }
  return errs;
}

/**
 * `ValidateEnvFrom`: each source a ConfigMap or a Secret (one of them), named, with a valid prefix.
 *
 * @example
 * ```ts
 * validateEnvFrom({ envFrom: [{}] }, 'spec.containers[0]'); // must specify one of: `configMapRef` or `secretRef`
 * ```
 */
export function validateEnvFrom(container: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const envFromPath = child(path, 'envFrom');
  for (const [source, i] of objectsAt(container, 'envFrom')) {
    const p = index(envFromPath, i);
    const prefix = stringAt(source, 'prefix');
    if (prefix !== '') errs.push(...invalidEach(child(p, 'prefix'), prefix, isEnvVarName(prefix)));
    let sources = 0;
    for (const key of ['configMapRef', 'secretRef']) {
      const ref = source[key];
      if (!isObject(ref)) continue;
      sources++;
      const name = stringAt(ref, 'name');
      // ValidateConfigMapName / ValidateSecretName in prefix mode: a trailing '-' is masked.
      const masked = name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
      if (name === '') errs.push(required(child(child(p, key), 'name')));
      else errs.push(...invalidEach(child(child(p, key), 'name'), name, isDNS1123Subdomain(masked)));
    }
    if (sources === 0) errs.push(invalidValue(envFromPath, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1) errs.push(invalidValue(envFromPath, '', 'may not have more than one field specified at a time'));
  }
  return errs;
}
