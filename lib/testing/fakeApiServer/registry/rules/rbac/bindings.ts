import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { child, index, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { invalidEach } from '../support/errors.js';
import { ensureObject, objectAt, objectsAt, stringAt } from '../support/json.js';
import { isDNS1123Subdomain, isPathSegmentName } from '../support/names.js';

// RoleBinding and ClusterRoleBinding (rbac.authorization.k8s.io/v1): roleRef and subjects'
// apiGroup defaults; ValidateRoleBinding / ValidateClusterRoleBinding; roleRef never changes.

const GROUP = 'rbac.authorization.k8s.io';

function defaultBinding(binding: JsonObject): void {
  const roleRef = ensureObject(binding, 'roleRef');
  if (typeof roleRef.apiGroup !== 'string' || roleRef.apiGroup === '') roleRef.apiGroup = GROUP;
  for (const [subject] of objectsAt(binding, 'subjects')) {
    if (typeof subject.apiGroup === 'string' && subject.apiGroup !== '') continue;
    // A ServiceAccount's group is the empty string, which Go's omitempty leaves off the wire.
    if (subject.kind === 'ServiceAccount') delete subject.apiGroup;
    else if (subject.kind === 'User' || subject.kind === 'Group') subject.apiGroup = GROUP;
  }
}

function validateSubject(subject: JsonObject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = stringAt(subject, 'name');
  if (name === '') errs.push(required(child(path, 'name')));
  const apiGroup = stringAt(subject, 'apiGroup');
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name !== '') errs.push(...invalidEach(child(path, 'name'), name, isDNS1123Subdomain(name)));
      if (apiGroup !== '') errs.push(notSupported(child(path, 'apiGroup'), apiGroup, ['']));
      if (!namespaced && stringAt(subject, 'namespace') === '') errs.push(required(child(path, 'namespace')));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== GROUP) errs.push(notSupported(child(path, 'apiGroup'), apiGroup, [GROUP]));
      break;
    default:
      errs.push(notSupported(child(path, 'kind'), subject.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(binding: JsonObject, namespaced: boolean): FieldError[] {
  const roleRef = objectAt(binding, 'roleRef') ?? {};
  const errs: FieldError[] = [];
  if (stringAt(roleRef, 'apiGroup') !== GROUP) errs.push(notSupported('roleRef.apiGroup', stringAt(roleRef, 'apiGroup'), [GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(stringAt(roleRef, 'kind'))) errs.push(notSupported('roleRef.kind', stringAt(roleRef, 'kind'), kinds));
  const name = stringAt(roleRef, 'name');
  if (name === '') errs.push(required('roleRef.name'));
  else errs.push(...invalidEach('roleRef.name', name, isPathSegmentName(name)));
  for (const [subject, i] of objectsAt(binding, 'subjects')) errs.push(...validateSubject(subject, namespaced, index('subjects', i)));
  return errs;
}

function immutableRoleRef(binding: JsonObject, old: JsonObject): FieldError[] {
  const ref = (b: JsonObject): { APIGroup: string; Kind: string; Name: string } => {
    const r = objectAt(b, 'roleRef');
    return { APIGroup: stringAt(r, 'apiGroup'), Kind: stringAt(r, 'kind'), Name: stringAt(r, 'name') };
  };
  const a = ref(binding);
  const b = ref(old);
  // The internal RoleRef, printed with Go's field names.
  return a.APIGroup === b.APIGroup && a.Kind === b.Kind && a.Name === b.Name ? [] : [invalidValue('roleRef', a, 'cannot change roleRef')];
}

/**
 * The RoleBinding's rules.
 *
 * @example
 * ```ts
 * roleBindingRules.validateUpdate?.(newBinding, oldBinding); // [roleRef: Invalid value: {"APIGroup":...}: cannot change roleRef] when it changed
 * ```
 */
export const roleBindingRules: TypeRules = {
  defaults: defaultBinding,
  validateCreate: (b) => validateBinding(b, true),
  validateUpdate: (b, old) => [...validateBinding(b, true), ...immutableRoleRef(b, old)],
};

/**
 * The ClusterRoleBinding's rules.
 *
 * @example
 * ```ts
 * clusterRoleBindingRules.validateCreate?.({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'x' } });
 * // [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"]
 * ```
 */
export const clusterRoleBindingRules: TypeRules = {
  defaults: defaultBinding,
  validateCreate: (b) => validateBinding(b, false),
  validateUpdate: (b, old) => [...validateBinding(b, false), ...immutableRoleRef(b, old)],
};
