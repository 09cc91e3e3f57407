import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { child, forbidden, index, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { decodingDefaults } from '../support/decoding.js';
import { FIELD_IMMUTABLE, invalidEach } from '../support/errors.js';
import { cloneJson, ensureObject, isObject, listAt, objectAt, semanticEqual, stringAt } from '../support/json.js';
import { validateLabelSelector } from '../support/labels.js';
import { isDNS1123Subdomain } from '../support/names.js';
import { compareQuantities, parseQuantity } from '../support/quantities.js';
import { defaultPersistentVolumeClaimSpec } from './podSpecDefaults.js';

// PersistentVolumeClaim (core/v1): `status.phase: Pending`, `volumeMode: Filesystem`;
// ValidatePersistentVolumeClaimSpec and ValidatePersistentVolumeClaimUpdate (the spec is fixed but
// for a bound claim's storage request and volumeAttributesClassName, and a volumeName set once).
// Kube appends a diff of the specs to the immutability message; it stops before it here.

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

function defaultPVC(pvc: JsonObject): void {
  const status = ensureObject(pvc, 'status');
  if (typeof status.phase !== 'string' || status.phase === '') status.phase = 'Pending';
  defaultPersistentVolumeClaimSpec(ensureObject(pvc, 'spec'));
}

const storageOf = (spec: JsonObject | undefined): unknown => objectAt(objectAt(spec, 'resources'), 'requests')?.storage;

/**
 * `ValidatePersistentVolumeClaimSpec` at `path` (`spec`, or a StatefulSet's claim template).
 *
 * @example
 * ```ts
 * validateClaimSpec({}, 'spec'); // [spec.accessModes: Required value: at least 1 access mode is required, spec.resources[storage]: Required value]
 * ```
 */
export function validateClaimSpec(spec: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const modes = listAt(spec, 'accessModes');
  if (modes.length === 0) errs.push(required(child(path, 'accessModes'), 'at least 1 access mode is required'));
  if (spec.selector !== undefined && spec.selector !== null) errs.push(...validateLabelSelector(spec.selector, child(path, 'selector')));
  let once = false;
  let other = false;
  for (const mode of modes) {
    if (typeof mode !== 'string' || !ACCESS_MODES.includes(mode)) errs.push(notSupported(child(path, 'accessModes'), mode, ACCESS_MODES));
    else if (mode === 'ReadWriteOncePod') once = true;
    else other = true;
  }
  if (once && other) errs.push(forbidden(child(path, 'accessModes'), 'may not use ReadWriteOncePod with other access modes'));
  const storagePath = index(child(path, 'resources'), 'storage');
  const storage = storageOf(spec);
  const q = typeof storage === 'string' ? parseQuantity(storage) : undefined;
  if (storage === undefined) errs.push(required(storagePath));
  else if (!q || q.negative || q.mantissa === 0n) errs.push(invalidValue(storagePath, storage, 'must be greater than zero'));
  const scn = spec.storageClassName;
  if (typeof scn === 'string' && scn !== '') errs.push(...invalidEach(child(path, 'storageClassName'), scn, isDNS1123Subdomain(scn)));
  const mode = spec.volumeMode;
  if (typeof mode === 'string' && mode !== 'Block' && mode !== 'Filesystem') errs.push(notSupported(child(path, 'volumeMode'), mode, ['Block', 'Filesystem']));
  return errs;
}

function validatePVCUpdate(pvc: JsonObject, old: JsonObject): FieldError[] {
  const spec = objectAt(pvc, 'spec') ?? {};
  const oldSpec = objectAt(old, 'spec') ?? {};
  const errs = validateClaimSpec(spec, 'spec');
  const newClone = cloneJson(spec);
  const oldClone = cloneJson(oldSpec);
  if (stringAt(oldSpec, 'volumeName') === '') oldClone.volumeName = newClone.volumeName;
  const oldAnnotation = objectAt(objectAt(old, 'metadata'), 'annotations')?.[STORAGE_CLASS_ANNOTATION];
  if (typeof oldAnnotation === 'string' && oldSpec.storageClassName == null && newClone.storageClassName === oldAnnotation) newClone.storageClassName = undefined;
  else if (oldSpec.storageClassName == null && typeof newClone.storageClassName === 'string' && oldAnnotation === undefined) newClone.storageClassName = oldSpec.storageClassName;
  const bound = stringAt(objectAt(pvc, 'status'), 'phase') === 'Bound';
  if (bound) {
    const requests = objectAt(objectAt(newClone, 'resources'), 'requests');
    if (requests) requests.storage = storageOf(oldSpec);
    newClone.volumeAttributesClassName = oldClone.volumeAttributesClassName;
  }
  if (!semanticEqual(newClone, oldClone)) errs.push(forbidden('spec', 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'));
  const newSize = typeof storageOf(spec) === 'string' ? parseQuantity(storageOf(spec) as string) : undefined;
  const oldSize = typeof storageOf(oldSpec) === 'string' ? parseQuantity(storageOf(oldSpec) as string) : undefined;
  const capacity = objectAt(objectAt(old, 'status'), 'capacity')?.storage;
  const statusSize = typeof capacity === 'string' ? parseQuantity(capacity) : parseQuantity('0');
  if (newSize && oldSize && statusSize && compareQuantities(newSize, oldSize) < 0 && compareQuantities(newSize, statusSize) <= 0) {
    errs.push(forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  }
  if (!semanticEqual(spec.volumeMode, oldSpec.volumeMode)) errs.push(invalidValue('volumeMode', spec.volumeMode ?? null, FIELD_IMMUTABLE));
  if (isObject(objectAt(old, 'status')) && objectAt(old, 'status')?.currentVolumeAttributesClassName != null && !semanticEqual(spec.volumeAttributesClassName, oldSpec.volumeAttributesClassName)) {
    if (spec.volumeAttributesClassName == null) errs.push(forbidden('spec.volumeAttributesClassName', 'update to nil is forbidden when status.currentVolumeAttributesClassName is not nil'));
    else if (spec.volumeAttributesClassName === '') errs.push(forbidden('spec.volumeAttributesClassName', 'update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil'));
  }
  return errs;
}

/**
 * The PersistentVolumeClaim's rules.
 *
 * @example
 * ```ts
 * const pvc = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
 * pvcRules.defaults?.(pvc); // pvc.spec.volumeMode === 'Filesystem', pvc.status.phase === 'Pending'
 * ```
 */
export const pvcRules: TypeRules = {
  defaults: decodingDefaults('PersistentVolumeClaim', defaultPVC),
  validateCreate: (pvc) => validateClaimSpec(objectAt(pvc, 'spec') ?? {}, 'spec'),
  validateUpdate: validatePVCUpdate,
};
