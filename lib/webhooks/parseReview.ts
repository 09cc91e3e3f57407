import type { AdmissionRequest, AdmissionReview } from './admissionReview.js';
import type { ConversionRequest, ConversionReview } from './conversionReview.js';
import { BadReviewError } from './webhookErrors.js';

const isObject = (v: unknown): v is { [key: string]: unknown } => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : v === undefined ? 'nothing' : typeof v);

const OPERATIONS = new Set(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']);

/**
 * Checks that `body` (parsed JSON) is an AdmissionReview rxkube can answer: `admission.k8s.io/v1`
 * or `v1beta1`, kind `AdmissionReview`, a `request` with a string `uid`, an `operation`, and
 * `kind`/`resource`. Throws {@link BadReviewError} (400) saying what is wrong.
 *
 * @example
 * ```ts
 * const review = parseAdmissionReview(JSON.parse(body));
 * ```
 */
export function parseAdmissionReview(body: unknown): AdmissionReview & { readonly request: AdmissionRequest } {
  if (!isObject(body)) throw new BadReviewError(`the body is not an AdmissionReview: expected a JSON object, got ${Array.isArray(body) ? 'an array' : show(body)}`);
  const { apiVersion, kind, request } = body;
  if (kind !== 'AdmissionReview') throw new BadReviewError(`expected kind AdmissionReview, got ${show(kind)}`);
  if (apiVersion !== 'admission.k8s.io/v1' && apiVersion !== 'admission.k8s.io/v1beta1') {
    throw new BadReviewError(`unknown AdmissionReview version ${show(apiVersion)}: this webhook answers admission.k8s.io/v1 and admission.k8s.io/v1beta1`);
  }
  if (!isObject(request)) throw new BadReviewError('the AdmissionReview has no request');
  if (typeof request['uid'] !== 'string' || request['uid'] === '') throw new BadReviewError('the AdmissionReview request has no uid');
  if (typeof request['operation'] !== 'string' || !OPERATIONS.has(request['operation'])) {
    throw new BadReviewError(`the AdmissionReview request has operation ${show(request['operation'])}: expected one of CREATE, UPDATE, DELETE, CONNECT`);
  }
  if (!isObject(request['kind']) || !isObject(request['resource'])) throw new BadReviewError('the AdmissionReview request has no kind or resource');
  if (request['object'] !== undefined && request['object'] !== null && !isObject(request['object'])) throw new BadReviewError('the AdmissionReview request object is not a JSON object');
  return body as unknown as AdmissionReview & { readonly request: AdmissionRequest };
}

/**
 * Checks that `body` is a ConversionReview rxkube can answer: `apiextensions.k8s.io/v1` or
 * `v1beta1`, kind `ConversionReview`, a `request` with a string `uid`, a `desiredAPIVersion` and
 * an array of objects. Throws {@link BadReviewError} (400) saying what is wrong.
 *
 * @example
 * ```ts
 * const review = parseConversionReview(JSON.parse(body));
 * ```
 */
export function parseConversionReview(body: unknown): ConversionReview & { readonly request: ConversionRequest } {
  if (!isObject(body)) throw new BadReviewError(`the body is not a ConversionReview: expected a JSON object, got ${Array.isArray(body) ? 'an array' : show(body)}`);
  const { apiVersion, kind, request } = body;
  if (kind !== 'ConversionReview') throw new BadReviewError(`expected kind ConversionReview, got ${show(kind)}`);
  if (apiVersion !== 'apiextensions.k8s.io/v1' && apiVersion !== 'apiextensions.k8s.io/v1beta1') {
    throw new BadReviewError(`unknown ConversionReview version ${show(apiVersion)}: this webhook answers apiextensions.k8s.io/v1 and apiextensions.k8s.io/v1beta1`);
  }
  if (!isObject(request)) throw new BadReviewError('the ConversionReview has no request');
  if (typeof request['uid'] !== 'string' || request['uid'] === '') throw new BadReviewError('the ConversionReview request has no uid');
  if (typeof request['desiredAPIVersion'] !== 'string' || request['desiredAPIVersion'] === '') throw new BadReviewError('the ConversionReview request has no desiredAPIVersion');
  if (!Array.isArray(request['objects'])) throw new BadReviewError('the ConversionReview request has no objects list');
  return body as unknown as ConversionReview & { readonly request: ConversionRequest };
}
