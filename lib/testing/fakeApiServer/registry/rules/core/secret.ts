import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { badRequest } from '../../../status.js';
import { index, invalidValue, required, tooLong } from '../../../schema/fieldErrors.js';
import { FIELD_IMMUTABLE, invalidEach } from '../support/errors.js';
import { isObject, objectAt, stringAt } from '../support/json.js';
import { isConfigMapKey } from '../support/names.js';
import { base64Length, immutableData, MAX_DATA_SIZE } from './configMap.js';

// Secret (core/v1): `type: Opaque` by default; `stringData` merged into `data` (base64, its keys
// winning) and dropped, as kube's conversion does; data that is not base64 fails decoding (400);
// ValidateSecret's type-specific keys and ValidateSecretUpdate (type fixed, `immutable`).

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Go's encoding/base64 (StdEncoding) error position for a bad value, or -1. */
function base64ErrorOffset(v: string): number {
  const s = v.replace(/[\r\n]/g, '');
  if (BASE64.test(s) && s.length % 4 === 0 && !/=[^=]/.test(s)) return -1;
  const bad = s.search(/[^A-Za-z0-9+/=]/);
  if (bad >= 0) return bad;
  const pad = s.indexOf('=');
  return pad >= 0 && pad < s.length - 2 ? pad : s.length - (s.length % 4 || 4);
}

function defaultSecret(secret: JsonObject): void {
  if (typeof secret.type !== 'string' || secret.type === '') secret.type = 'Opaque';
  const data = isObject(secret.data) ? secret.data : undefined;
  for (const value of Object.values(data ?? {})) {
    if (value === null) continue;
    const offset = typeof value === 'string' ? base64ErrorOffset(value) : 0;
    if (offset >= 0) throw badRequest(`Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte ${offset}`);
  }
  if (isObject(secret.stringData)) {
    const merged: JsonObject = { ...(data ?? {}) };
    for (const [key, value] of Object.entries(secret.stringData)) merged[key] = Buffer.from(typeof value === 'string' ? value : '', 'utf8').toString('base64');
    secret.data = merged;
  }
  delete secret.stringData;
}

const TYPE_KEYS: { readonly [type: string]: (data: JsonObject, secret: JsonObject) => FieldError[] } = {
  'kubernetes.io/service-account-token': (_data, secret) =>
    stringAt(objectAt(objectAt(secret, 'metadata'), 'annotations'), 'kubernetes.io/service-account.name') === ''
      ? [required('metadata.annotations[kubernetes.io/service-account.name]')]
      : [],
  'kubernetes.io/dockercfg': (data) => jsonKey(data, '.dockercfg'),
  'kubernetes.io/dockerconfigjson': (data) => jsonKey(data, '.dockerconfigjson'),
  'kubernetes.io/basic-auth': (data) => (!('username' in data) && !('password' in data) ? [required('data[username]'), required('data[password]')] : []),
  'kubernetes.io/ssh-auth': (data) => (base64Length(data['ssh-privatekey']) === 0 ? [required('data[ssh-privatekey]')] : []),
  'kubernetes.io/tls': (data) => [...('tls.crt' in data ? [] : [required('data[tls.crt]')]), ...('tls.key' in data ? [] : [required('data[tls.key]')])],
};

/** Go's json.Unmarshal error for a docker config that is not a JSON object (its common texts). */
function jsonObjectError(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const first = text.trimStart()[0];
    return first === undefined || '{["tfn-0123456789'.includes(first) ? 'unexpected end of JSON input' : `invalid character '${first}' looking for beginning of value`;
  }
  if (parsed === null || isObject(parsed)) return undefined;
  const kind = Array.isArray(parsed) ? 'array' : typeof parsed === 'boolean' ? 'bool' : typeof parsed;
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

function jsonKey(data: JsonObject, key: string): FieldError[] {
  if (!(key in data)) return [required(index('data', key))];
  const err = jsonObjectError(Buffer.from(stringAt(data, key), 'base64').toString('utf8'));
  return err ? [invalidValue(index('data', key), '<secret contents redacted>', err)] : [];
}

function validateSecret(secret: JsonObject): FieldError[] {
  const data = isObject(secret.data) ? secret.data : {};
  const errs: FieldError[] = [];
  let size = 0;
  for (const key of Object.keys(data).sort()) {
    errs.push(...invalidEach(index('data', key), key, isConfigMapKey(key)));
    size += base64Length(data[key]);
  }
  if (size > MAX_DATA_SIZE) errs.push(tooLong('data', MAX_DATA_SIZE));
  const check = TYPE_KEYS[stringAt(secret, 'type')];
  if (check) errs.push(...check(data, secret));
  return errs;
}

function validateSecretUpdate(secret: JsonObject, old: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  if (stringAt(secret, 'type') !== stringAt(old, 'type')) errs.push(invalidValue('type', stringAt(secret, 'type'), FIELD_IMMUTABLE));
  errs.push(...immutableData(secret, old, ['data']));
  return [...errs, ...validateSecret(secret)];
}

/**
 * The Secret's rules.
 *
 * @example
 * ```ts
 * const s = { apiVersion: 'v1', kind: 'Secret', stringData: { password: 'hunter2' } };
 * secretRules.defaults?.(s); // s = { ..., type: 'Opaque', data: { password: 'aHVudGVyMg==' } }
 * ```
 */
export const secretRules: TypeRules = {
  defaults: defaultSecret,
  validateCreate: validateSecret,
  validateUpdate: validateSecretUpdate,
};
