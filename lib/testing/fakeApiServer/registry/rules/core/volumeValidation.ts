import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import { child, duplicate, forbidden, index, invalidValue, required } from '../../../schema/fieldErrors.js';
import { invalidEach } from '../support/errors.js';
import { isObject, objectAt, objectsAt, stringAt } from '../support/json.js';
import { isDNS1123Label } from '../support/names.js';
import { parseQuantity } from '../support/quantities.js';

// A PodSpec's `volumes` (core validation's ValidateVolumes and validateVolumeSource): names,
// exactly one source each, and the required fields of the common sources. The sources are
// checked in kube's order, so "may not specify more than 1 volume type" names the same one.

const SOURCES = [
  'emptyDir', 'hostPath', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs', 'flocker',
  'persistentVolumeClaim', 'rbd', 'cinder', 'cephfs', 'quobyte', 'downwardAPI', 'fc', 'flexVolume', 'configMap', 'azureFile',
  'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'storageos', 'projected', 'scaleIO', 'csi', 'ephemeral', 'image',
];
const FILE_MODE = 'must be a number between 0 and 0777 (octal), both inclusive';

function validateMode(source: JsonObject, key: string, path: string): FieldError[] {
  const mode = source[key];
  return typeof mode === 'number' && (mode > 0o777 || mode < 0) ? [invalidValue(child(path, key), mode, FILE_MODE)] : [];
}

function validateItems(source: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [item, i] of objectsAt(source, 'items')) {
    const p = index(child(path, 'items'), i);
    if (stringAt(item, 'key') === '') errs.push(required(child(p, 'key')));
    if (stringAt(item, 'path') === '') errs.push(required(child(p, 'path')));
    errs.push(...validateMode(item, 'mode', p));
  }
  return errs;
}

/** The checks of one volume source, by its field name. */
const SOURCE_CHECKS: { readonly [k: string]: (s: JsonObject, p: string) => FieldError[] } = {
  emptyDir: (s, p) => {
    const q = typeof s.sizeLimit === 'string' ? parseQuantity(s.sizeLimit) : undefined;
    return q?.negative ? [forbidden(child(p, 'sizeLimit'), 'SizeLimit field must be a valid resource quantity')] : [];
  },
  hostPath: (s, p) => (stringAt(s, 'path') === '' ? [required(child(p, 'path'))] : []),
  secret: (s, p) => [...(stringAt(s, 'secretName') === '' ? [required(child(p, 'secretName'))] : []), ...validateMode(s, 'defaultMode', p), ...validateItems(s, p)],
  configMap: (s, p) => [...(stringAt(s, 'name') === '' ? [required(child(p, 'name'))] : []), ...validateMode(s, 'defaultMode', p), ...validateItems(s, p)],
  persistentVolumeClaim: (s, p) => (stringAt(s, 'claimName') === '' ? [required(child(p, 'claimName'))] : []),
  nfs: (s, p) => [...(stringAt(s, 'server') === '' ? [required(child(p, 'server'))] : []), ...(stringAt(s, 'path') === '' ? [required(child(p, 'path'))] : [])],
  csi: (s, p) => (stringAt(s, 'driver') === '' ? [required(child(p, 'driver'))] : []),
  downwardAPI: (s, p) => validateMode(s, 'defaultMode', p),
  projected: (s, p) => validateMode(s, 'defaultMode', p),
  ephemeral: (s, p) => (isObject(s.volumeClaimTemplate) ? [] : [required(child(p, 'volumeClaimTemplate'))]),
};

function validateSource(volume: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let sources = 0;
  for (const key of SOURCES) {
    const source = volume[key];
    if (source === undefined || source === null) continue;
    if (sources > 0) {
      errs.push(forbidden(child(path, key), 'may not specify more than 1 volume type'));
      continue;
    }
    sources++;
    const check = SOURCE_CHECKS[key];
    if (check && isObject(source)) errs.push(...check(source, child(path, key)));
  }
  if (sources === 0) errs.push(required(path, 'must specify a volume type'));
  return errs;
}

/**
 * `ValidateVolumes`: the causes, and the names of the volumes that passed (containers may mount
 * only those).
 *
 * @example
 * ```ts
 * validateVolumes({ volumes: [{ name: 'a', emptyDir: {} }] }, 'spec.volumes'); // { errors: [], names: Set { 'a' } }
 * ```
 */
export function validateVolumes(spec: JsonObject, path: string): { errors: FieldError[]; names: Set<string> } {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  for (const [volume, i] of objectsAt(spec, 'volumes')) {
    const p = index(path, i);
    const name = stringAt(volume, 'name');
    const errs = validateSource(volume, p);
    if (name === '') errs.push(required(child(p, 'name')));
    else errs.push(...invalidEach(child(p, 'name'), name, isDNS1123Label(name)));
    if (names.has(name)) errs.push(duplicate(child(p, 'name'), name));
    if (errs.length === 0) names.add(name);
    else errors.push(...errs);
  }
  return { errors, names };
}

/**
 * The claim a volume's `ephemeral` source would make, for pods (`<pod>-<volume>`): kube refuses
 * a `persistentVolumeClaim` volume naming it.
 *
 * @example
 * ```ts
 * ephemeralClaimNames('web', spec); // Set { 'web-scratch' }
 * ```
 */
export function ephemeralClaimNames(podName: string, spec: JsonObject): Set<string> {
  return new Set(objectsAt(spec, 'volumes').flatMap(([v]) => (podName !== '' && objectAt(v, 'ephemeral') ? [`${podName}-${stringAt(v, 'name')}`] : [])));
}
