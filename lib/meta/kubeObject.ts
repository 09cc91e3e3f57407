/**
 * A Kubernetes object as it arrives on the wire: JSON, so every timestamp is an RFC 3339 `string`
 * (never a `Date`). Extend it for a custom resource; every field of `metav1.ObjectMeta` is there,
 * so finalizers, deletion timestamps and owner references need no casts.
 *
 * @example
 * ```ts
 * interface Widget extends KubeObject {
 *   spec?: { size: number };
 * }
 * const w: Widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'a', finalizers: ['example.com/f'] } };
 * const created: string | undefined = w.metadata?.creationTimestamp;
 * ```
 */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

/** An RFC 3339 timestamp as the API server writes it (`metav1.Time`): `2026-01-01T00:00:00Z`. */
export type Time = string;

/**
 * Every field of `metav1.ObjectMeta`, as JSON (timestamps are strings).
 *
 * @example
 * ```ts
 * const meta: ObjectMeta = { name: 'a', namespace: 'ns', finalizers: ['example.com/cleanup'], generation: 2 };
 * ```
 */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: Time;
  deletionTimestamp?: Time;
  deletionGracePeriodSeconds?: number;
  labels?: { [key: string]: string };
  annotations?: { [key: string]: string };
  ownerReferences?: ReadonlyArray<OwnerReference>;
  finalizers?: string[];
  managedFields?: ReadonlyArray<ManagedFieldsEntry>;
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

/** One entry of `metadata.managedFields` (`metav1.ManagedFieldsEntry`), as JSON. */
export interface ManagedFieldsEntry {
  apiVersion?: string;
  fieldsType?: string;
  fieldsV1?: object;
  manager?: string;
  operation?: string;
  subresource?: string;
  time?: Time;
}

/**
 * What rxkube's generic functions accept: an object as JSON ({@link KubeObject}) or one of
 * `@kubernetes/client-node`'s model classes, whose timestamps are typed `Date` (`V1Pod`,
 * `V1Deployment`, ...). Code that reads a timestamp from it gets `string | Date` and must say which.
 *
 * @example
 * ```ts
 * import type { V1Pod } from '@kubernetes/client-node';
 * const accepted: KubeObjectLike = {} as V1Pod;
 * ```
 */
export interface KubeObjectLike {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMetaLike;
}

/**
 * {@link ObjectMeta} as client-node's `V1ObjectMeta` fits it too: timestamps `string | Date`.
 *
 * @example
 * ```ts
 * const meta: ObjectMetaLike = { name: 'a', creationTimestamp: new Date(0) };
 * ```
 */
export interface ObjectMetaLike extends Omit<ObjectMeta, 'creationTimestamp' | 'deletionTimestamp' | 'managedFields'> {
  creationTimestamp?: Time | Date;
  deletionTimestamp?: Time | Date;
  /** Any entries: rxkube only ever drops them (`stripManagedFields`). */
  managedFields?: ReadonlyArray<unknown>;
}

/** A deeply read-only view of a value: what rxkube hands out (objects are frozen). */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyArray<infer U>
    ? ReadonlyArray<DeepReadonly<U>>
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;
