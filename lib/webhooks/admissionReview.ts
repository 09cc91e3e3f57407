import type { Status } from '../errors.js';
import type { KubeObject } from '../meta/kubeObject.js';

/**
 * The AdmissionReview API versions a webhook answers: `v1` (kube-apiserver 1.16+) and `v1beta1`
 * (same shape; older servers). The answer is in the version of the request.
 *
 * @example
 * ```ts
 * const v: AdmissionReviewVersion = 'v1';
 * ```
 */
export type AdmissionReviewVersion = 'v1' | 'v1beta1';

/** `admission.k8s.io/v1` and `admission.k8s.io/v1beta1`. */
export const ADMISSION_REVIEW_API_VERSIONS: ReadonlyArray<string> = Object.freeze(['admission.k8s.io/v1', 'admission.k8s.io/v1beta1']);

/**
 * An admission operation. `CONNECT` carries options objects (e.g. `PodExecOptions`), not the object.
 *
 * @example
 * ```ts
 * const op: AdmissionOperation = 'CREATE';
 * ```
 */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/**
 * A group/version/kind as an AdmissionRequest carries it (`group` is `''` for the core group).
 *
 * @example
 * ```ts
 * const gvk: GroupVersionKind = { group: 'apps', version: 'v1', kind: 'Deployment' };
 * ```
 */
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/**
 * A group/version/resource as an AdmissionRequest carries it.
 *
 * @example
 * ```ts
 * const gvr: GroupVersionResource = { group: 'apps', version: 'v1', resource: 'deployments' };
 * ```
 */
export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/**
 * Who made the request (authentication.k8s.io/v1 `UserInfo`).
 *
 * @example
 * ```ts
 * const user: UserInfo = { username: 'alice', groups: ['system:authenticated'] };
 * ```
 */
export interface UserInfo {
  readonly username?: string;
  readonly uid?: string;
  readonly groups?: ReadonlyArray<string>;
  readonly extra?: { readonly [key: string]: ReadonlyArray<string> };
}

/**
 * What kube-apiserver asks a webhook about (admission.k8s.io/v1 `AdmissionRequest`), with the
 * object typed. `kind`/`resource`/`subResource` are what the webhook's rule matched (possibly
 * converted by `matchPolicy: Equivalent`); `requestKind`/`requestResource`/`requestSubResource`
 * what the client called. `object` is null on DELETE, `oldObject` null on CREATE.
 *
 * @example
 * ```ts
 * const request: AdmissionRequest<KubeObject> = {
 *   uid: '0df28fbd-5f5f-4c5c-9f3b-3a3d3f0e4c1a', operation: 'CREATE', userInfo: { username: 'alice' },
 *   kind: { group: '', version: 'v1', kind: 'ConfigMap' }, resource: { group: '', version: 'v1', resource: 'configmaps' },
 *   namespace: 'shop', name: 'settings', object: { metadata: { name: 'settings' } }, oldObject: null, dryRun: false,
 * };
 * ```
 */
export interface AdmissionRequest<T = KubeObject> {
  /** A fresh id per call (not the object's uid); the response must echo it. */
  readonly uid: string;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  readonly subResource?: string;
  readonly requestKind?: GroupVersionKind;
  readonly requestResource?: GroupVersionResource;
  readonly requestSubResource?: string;
  /** Empty for a mutating webhook on a `generateName` create (the name is not chosen yet). */
  readonly name?: string;
  readonly namespace?: string;
  readonly operation: AdmissionOperation;
  readonly userInfo: UserInfo;
  readonly object?: T | null;
  readonly oldObject?: T | null;
  /** The request will not be persisted: a webhook with side effects must not make them. */
  readonly dryRun?: boolean;
  /** `meta.k8s.io/v1` `CreateOptions`, `UpdateOptions` or `DeleteOptions` (or CONNECT's options). */
  readonly options?: { readonly [key: string]: unknown } | null;
}

/**
 * A webhook's answer (admission.k8s.io/v1 `AdmissionResponse`). `patch` is an RFC 6902 JSON Patch,
 * base64 in JSON, with `patchType: 'JSONPatch'`; both only when there is something to patch.
 *
 * @example
 * ```ts
 * const response: AdmissionResponse = { uid: request.uid, allowed: false, status: { code: 403, reason: 'Forbidden', message: 'no' } };
 * ```
 */
export interface AdmissionResponse {
  readonly uid: string;
  readonly allowed: boolean;
  /** On denial: kube's error is `admission webhook "<name>" denied the request: <message>`, HTTP `code` if >= 400. */
  readonly status?: Status;
  readonly patch?: string;
  readonly patchType?: 'JSONPatch';
  /** Each becomes a `Warning: 299 - "<text>"` header of the client's response; keep each under 120 characters. */
  readonly warnings?: ReadonlyArray<string>;
  /** Recorded in the audit log as `<webhook name>/<key>`. */
  readonly auditAnnotations?: { readonly [key: string]: string };
}

/**
 * The body of an admission webhook call and of its answer: `request` in, `response` out, in the
 * same `apiVersion`.
 *
 * @example
 * ```ts
 * const review: AdmissionReview = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request };
 * ```
 */
export interface AdmissionReview<T = KubeObject> {
  readonly apiVersion: string;
  readonly kind: 'AdmissionReview';
  readonly request?: AdmissionRequest<T>;
  readonly response?: AdmissionResponse;
}
