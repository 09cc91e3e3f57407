import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { invalidValue } from '../../../schema/fieldErrors.js';
import { invalidEach } from '../support/errors.js';
import { ensureObject, listAt, objectAt, stringAt } from '../support/json.js';
import { isQualifiedName } from '../support/names.js';

// Namespace (core/v1): SetDefaults_Namespace (the `kubernetes.io/metadata.name` label, always the
// name) and SetDefaults_NamespaceStatus (`Active`); on create the strategy adds the `kubernetes`
// finalizer and labels a generated name (PrepareForCreate, Canonicalize: from `allocate`, when
// the name is known); ValidateNamespace's finalizer names.

const NAME_LABEL = 'kubernetes.io/metadata.name';
const STANDARD_FINALIZERS = new Set(['kubernetes']);

function labelWithName(ns: JsonObject): void {
  const name = stringAt(objectAt(ns, 'metadata'), 'name');
  if (name === '') return;
  const metadata = ensureObject(ns, 'metadata');
  ensureObject(metadata, 'labels')[NAME_LABEL] = name;
}

function defaultNamespace(ns: JsonObject): void {
  labelWithName(ns);
  const status = ensureObject(ns, 'status');
  if (typeof status.phase !== 'string' || status.phase === '') status.phase = 'Active';
}

function prepareNamespaceForCreate(ns: JsonObject): void {
  labelWithName(ns);
  const spec = ensureObject(ns, 'spec');
  const finalizers = listAt(spec, 'finalizers');
  if (!finalizers.includes('kubernetes')) spec.finalizers = [...finalizers, 'kubernetes'];
}

function validateNamespace(ns: JsonObject): FieldError[] {
  // kube reports these at `spec.finalizers`, without the index.
  return listAt(objectAt(ns, 'spec'), 'finalizers').flatMap((f) => {
    const name = typeof f === 'string' ? f : '';
    const errs = invalidEach('spec.finalizers', name, isQualifiedName(name));
    if (!name.includes('/') && !STANDARD_FINALIZERS.has(name)) errs.push(invalidValue('spec.finalizers', name, 'name is neither a standard finalizer name nor is it fully qualified'));
    return errs;
  });
}

/**
 * The Namespace's rules.
 *
 * @example
 * ```ts
 * const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } };
 * namespaceRules.defaults?.(ns); // ns.metadata.labels['kubernetes.io/metadata.name'] === 'team-a'
 * ```
 */
export const namespaceRules: TypeRules = {
  defaults: defaultNamespace,
  validateCreate: validateNamespace,
  allocate: (ns, old) => {
    if (!old) prepareNamespaceForCreate(ns);
    return [];
  },
};
