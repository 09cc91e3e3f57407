// PersistentVolumeClaims, PersistentVolumes and StorageClasses as `kubectl get` shows them (kube's
// printPersistentVolumeClaim, printPersistentVolume, printStorageClass). Unset fields read with
// kube's read-time defaults (claim phase Pending, volume mode Filesystem, reclaim policy Retain).
import type { JsonObject } from '../resources.js';
import { ageColumn, column, nameColumn, wide } from './columns.js';
import { at, createdOf, isDeleting, nameOf, obj, str } from './fields.js';
import { accessModes } from './formats.js';
import { ageSince } from './humanDuration.js';
import type { PrintedRow, TablePrinter } from './table.js';

const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

// The beta annotation first, then spec.storageClassName (kube's GetPersistentVolume[Claim]Class).
const storageClass = (o: JsonObject): string => {
  const annotations = obj(at(o, 'metadata', 'annotations'));
  return BETA_CLASS_ANNOTATION in annotations ? str(annotations[BETA_CLASS_ANNOTATION]) : str(at(o, 'spec', 'storageClassName'));
};
const attributesClass = (o: JsonObject): string =>
  typeof at(o, 'spec', 'volumeAttributesClassName') === 'string' ? str(at(o, 'spec', 'volumeAttributesClassName')) : '<unset>';
const volumeMode = (o: JsonObject): string => str(at(o, 'spec', 'volumeMode')) || 'Filesystem';

/**
 * PersistentVolumeClaims: Name, Status, Volume, Capacity, Access Modes, StorageClass,
 * VolumeAttributesClass, Age | VolumeMode. Capacity and access modes show once the claim is bound.
 *
 * @example
 * ```ts
 * pvcPrinter.row(pvc, Date.now()).cells.slice(1, 5); // ['Bound', 'pv-1', '1Gi', 'RWO']
 * ```
 */
export const pvcPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Status'),
    column('Volume'),
    column('Capacity'),
    column('Access Modes'),
    column('StorageClass', 'string', 'StorageClass of the pvc'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
    ageColumn,
    wide('VolumeMode'),
  ],
  row(pvc: JsonObject, now: number): PrintedRow {
    const volume = str(at(pvc, 'spec', 'volumeName'));
    return {
      cells: [
        nameOf(pvc),
        isDeleting(pvc) ? 'Terminating' : str(at(pvc, 'status', 'phase')) || 'Pending',
        volume,
        volume === '' ? '' : str(at(pvc, 'status', 'capacity', 'storage')),
        volume === '' ? '' : accessModes(at(pvc, 'status', 'accessModes')),
        storageClass(pvc),
        attributesClass(pvc),
        ageSince(createdOf(pvc), now),
        volumeMode(pvc),
      ],
    };
  },
};

/**
 * PersistentVolumes: Name, Capacity, Access Modes, Reclaim Policy, Status, Claim, StorageClass,
 * VolumeAttributesClass, Reason, Age | VolumeMode.
 *
 * @example
 * ```ts
 * pvPrinter.row(pv, Date.now()).cells.slice(1, 6); // ['1Gi', 'RWO', 'Retain', 'Bound', 'shop/data']
 * ```
 */
export const pvPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Capacity'),
    column('Access Modes'),
    column('Reclaim Policy'),
    column('Status'),
    column('Claim'),
    column('StorageClass', 'string', 'StorageClass of the pv'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv'),
    column('Reason'),
    ageColumn,
    wide('VolumeMode'),
  ],
  row(pv: JsonObject, now: number): PrintedRow {
    const claim = at(pv, 'spec', 'claimRef');
    return {
      cells: [
        nameOf(pv),
        str(at(pv, 'spec', 'capacity', 'storage')),
        accessModes(at(pv, 'spec', 'accessModes')),
        str(at(pv, 'spec', 'persistentVolumeReclaimPolicy')) || 'Retain',
        isDeleting(pv) ? 'Terminating' : str(at(pv, 'status', 'phase')) || 'Pending',
        claim === undefined || claim === null ? '' : `${str(obj(claim).namespace)}/${str(obj(claim).name)}`,
        storageClass(pv),
        attributesClass(pv),
        str(at(pv, 'status', 'reason')),
        ageSince(createdOf(pv), now),
        volumeMode(pv),
      ],
    };
  },
};

const isDefaultClass = (sc: JsonObject): boolean => {
  const annotations = obj(at(sc, 'metadata', 'annotations'));
  return annotations['storageclass.kubernetes.io/is-default-class'] === 'true' || annotations['storageclass.beta.kubernetes.io/is-default-class'] === 'true';
};

/**
 * StorageClasses: Name (` (default)` after the default class), Provisioner, ReclaimPolicy,
 * VolumeBindingMode, AllowVolumeExpansion, Age.
 *
 * @example
 * ```ts
 * storageClassPrinter.row(sc, Date.now()).cells.slice(0, 4); // ['standard (default)', 'rancher.io/local-path', 'Delete', 'WaitForFirstConsumer']
 * ```
 */
export const storageClassPrinter: TablePrinter = {
  columns: [nameColumn, column('Provisioner'), column('ReclaimPolicy'), column('VolumeBindingMode'), column('AllowVolumeExpansion'), ageColumn],
  row: (sc: JsonObject, now: number): PrintedRow => ({
    cells: [
      isDefaultClass(sc) ? `${nameOf(sc)} (default)` : nameOf(sc),
      str(sc.provisioner),
      str(sc.reclaimPolicy) || 'Delete',
      str(sc.volumeBindingMode) || 'Immediate',
      sc.allowVolumeExpansion === true,
      ageSince(createdOf(sc), now),
    ],
  }),
};
