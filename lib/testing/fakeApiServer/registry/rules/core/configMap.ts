import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { forbidden, index, invalidValue, tooLong } from '../../../schema/fieldErrors.js';
import { invalidEach } from '../support/errors.js';
import { isObject, strictEqual } from '../support/json.js';
import { isConfigMapKey } from '../support/names.js';

// ConfigMap (core/v1): ValidateConfigMap (keys, at most 1 MiB in all) and ValidateConfigMapUpdate
// (an `immutable` ConfigMap keeps its data and stays immutable). SetDefaults_ConfigMap's empty
// `data` is not visible on the wire (omitempty), so nothing is defaulted.

/**
 * core.MaxSecretSize, the cap on a ConfigMap's or Secret's data (1 MiB).
 *
 * @example
 * ```ts
 * size > MAX_DATA_SIZE; // kube's `Too long: may not be more than 1048576 bytes`
 * ```
 */
export const MAX_DATA_SIZE = 1024 * 1024;

/**
 * The decoded length of a base64 value (what Go's []byte holds).
 *
 * @example
 * ```ts
 * base64Length('aGk='); // 2
 * ```
 */
export const base64Length = (v: unknown): number => (typeof v === 'string' ? Buffer.from(v, 'base64').length : 0);

function validateConfigMap(cm: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const data = isObject(cm.data) ? cm.data : {};
  const binaryData = isObject(cm.binaryData) ? cm.binaryData : {};
  let size = 0;
  for (const key of Object.keys(data).sort()) {
    errs.push(...invalidEach(index('data', key), key, isConfigMapKey(key)));
    if (Object.hasOwn(binaryData, key)) errs.push(invalidValue(index('data', key), key, 'duplicate of key present in binaryData'));
    size += typeof data[key] === 'string' ? Buffer.byteLength(data[key] as string, 'utf8') : 0;
  }
  for (const key of Object.keys(binaryData).sort()) {
    errs.push(...invalidEach(index('binaryData', key), key, isConfigMapKey(key)));
    size += base64Length(binaryData[key]);
  }
  if (size > MAX_DATA_SIZE) errs.push(tooLong('', MAX_DATA_SIZE));
  return errs;
}

/**
 * The rules of an `immutable: true` ConfigMap or Secret: `immutable` stays set and the listed
 * data fields do not change.
 *
 * @example
 * ```ts
 * immutableData(newCm, oldCm, ['data', 'binaryData']); // [data: Forbidden: field is immutable when `immutable` is set]
 * ```
 */
export function immutableData(obj: JsonObject, old: JsonObject, fields: ReadonlyArray<string>): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const f of fields) if (!strictEqual(obj[f] ?? {}, old[f] ?? {})) errs.push(forbidden(f, 'field is immutable when `immutable` is set'));
  return errs;
}

/**
 * The ConfigMap's rules.
 *
 * @example
 * ```ts
 * configMapRules.validateUpdate?.({ data: { a: '2' } }, { immutable: true, data: { a: '1' } });
 * // [immutable: Forbidden: ..., data: Forbidden: field is immutable when `immutable` is set]
 * ```
 */
export const configMapRules: TypeRules = {
  validateCreate: validateConfigMap,
  validateUpdate: (cm, old) => [...immutableData(cm, old, ['data', 'binaryData']), ...validateConfigMap(cm)],
};
