import type { KubeObject } from '../meta/kubeObject.js';

/**
 * What kube-apiserver asks a conversion webhook (apiextensions.k8s.io/v1 `ConversionRequest`):
 * convert every object to `desiredAPIVersion` (`group/version`).
 *
 * @example
 * ```ts
 * const request: ConversionRequest = { uid: 'a1', desiredAPIVersion: 'example.com/v1', objects: [{ apiVersion: 'example.com/v1alpha1', kind: 'Backup', metadata: { name: 'b' } }] };
 * ```
 */
export interface ConversionRequest {
  readonly uid: string;
  readonly desiredAPIVersion: string;
  readonly objects: ReadonlyArray<KubeObject>;
}

/**
 * A conversion webhook's answer: every object converted (same order), `result.status: Success`;
 * or none and `result.status: Failure` with a message kube shows the client.
 *
 * @example
 * ```ts
 * const response: ConversionResponse = { uid: 'a1', convertedObjects: [], result: { status: 'Failure', message: 'no conversion from v2' } };
 * ```
 */
export interface ConversionResponse {
  readonly uid: string;
  readonly convertedObjects: ReadonlyArray<KubeObject>;
  readonly result: { readonly status: 'Success' | 'Failure'; readonly message?: string };
}

/**
 * The body of a conversion webhook call and of its answer (`apiextensions.k8s.io/v1`).
 *
 * @example
 * ```ts
 * const review: ConversionReview = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request };
 * ```
 */
export interface ConversionReview {
  readonly apiVersion: string;
  readonly kind: 'ConversionReview';
  readonly request?: ConversionRequest;
  readonly response?: ConversionResponse;
}
