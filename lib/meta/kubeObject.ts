/**
 * The part of a Kubernetes object that rxkube reads: its metadata. Any typed model from
 * `@kubernetes/client-node` (`V1Pod`, `V1Deployment`, ...) and any custom resource fits.
 *
 * @example
 * ```ts
 * const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' } };
 * ```
 */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

/** The metadata fields rxkube reads. Others pass through untouched. */
export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generateName?: string;
  labels?: { [key: string]: string };
  annotations?: { [key: string]: string };
  ownerReferences?: ReadonlyArray<OwnerReference>;
}

/** An owner reference, as `metadata.ownerReferences` carries it. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** A deeply read-only view of a value: what rxkube hands out (objects are frozen). */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyArray<infer U>
    ? ReadonlyArray<DeepReadonly<U>>
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;
