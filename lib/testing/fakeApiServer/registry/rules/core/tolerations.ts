import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import { child, forbidden, index, invalidValue, notSupported } from '../../../schema/fieldErrors.js';
import { invalidEach } from '../support/errors.js';
import { objectsAt, semanticEqual, stringAt } from '../support/json.js';
import { isLabelValue, isQualifiedName } from '../support/names.js';

// A PodSpec's `tolerations` (core validation's ValidateTolerations), and the Pod-update rule that
// existing tolerations stay (validateOnlyAddedTolerations).

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/**
 * `ValidateTolerations`.
 *
 * @example
 * ```ts
 * validateTolerations({ tolerations: [{ operator: 'Equal', value: 'x' }] }, 'spec.tolerations');
 * // [spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, ...]
 * ```
 */
export function validateTolerations(spec: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [t, i] of objectsAt(spec, 'tolerations')) {
    const p = index(path, i);
    const key = stringAt(t, 'key');
    const operator = stringAt(t, 'operator');
    const value = stringAt(t, 'value');
    const effect = stringAt(t, 'effect');
    if (key !== '') errs.push(...invalidEach(child(p, 'key'), key, isQualifiedName(key)));
    if (key === '' && operator !== 'Exists') {
      errs.push(invalidValue(child(p, 'operator'), operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      errs.push(invalidValue(child(p, 'effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === 'Equal' || operator === '') {
      const msgs = isLabelValue(value);
      if (msgs.length > 0) errs.push(invalidValue(child(p, 'operator'), value, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (value !== '') errs.push(invalidValue(child(p, 'operator'), value, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(notSupported(child(p, 'operator'), operator, ['Equal', 'Exists']));
    }
    if (effect !== '' && !EFFECTS.includes(effect)) errs.push(notSupported(child(p, 'effect'), effect, EFFECTS));
  }
  return errs;
}

/**
 * `validateOnlyAddedTolerations`: every old toleration is still there (its tolerationSeconds may
 * change), then the new list is valid.
 *
 * @example
 * ```ts
 * validateOnlyAddedTolerations(newSpec, oldSpec, 'spec.tolerations');
 * ```
 */
export function validateOnlyAddedTolerations(spec: JsonObject, oldSpec: JsonObject, path: string): FieldError[] {
  const added = objectsAt(spec, 'tolerations').map(([t]) => t);
  for (const [old] of objectsAt(oldSpec, 'tolerations')) {
    const found = added.some((t) => semanticEqual({ ...old, tolerationSeconds: t.tolerationSeconds }, t));
    if (!found) return [forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(spec, path);
}
