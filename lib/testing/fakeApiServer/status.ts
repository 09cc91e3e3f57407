import type { Status } from '../../errors.js';

/**
 * A request failed with a Kubernetes `Status` (the server answers with it, HTTP code = `status.code`).
 * Internal to the fake API server; the data-plane helpers rethrow it as `ApiStatusError`.
 */
export class StatusError extends Error {
  readonly status: Status;
  constructor(status: Status) {
    super(status.message ?? '');
    this.status = status;
  }
}

/** A field error of an Invalid status, as apimachinery's `field.Error`. */
export interface FieldError {
  readonly field: string;
  /** apimachinery's `field.ErrorType` as a cause reason (`FieldValueInvalid`, `FieldValueRequired`, ...). */
  readonly type:
    | 'FieldValueForbidden'
    | 'FieldValueRequired'
    | 'FieldValueInvalid'
    | 'FieldValueNotSupported'
    | 'FieldValueTooLong'
    | 'FieldValueTooMany'
    | 'FieldValueTypeInvalid'
    | 'FieldValueDuplicate';
  /** The error body after the field, e.g. `Forbidden: resourceVersionMatch is forbidden ...`. */
  readonly body: string;
}

type Details = NonNullable<Status['details']>;

/**
 * How a Status names a resource: its plural and group (a `ResourceType` is one). Kept here, not
 * imported, so that the Status vocabulary depends on nothing of the server.
 *
 * @example
 * ```ts
 * const deployments: ResourceName = { plural: 'deployments', group: 'apps' };
 * ```
 */
export interface ResourceName {
  readonly plural: string;
  readonly group: string;
}

/** Builds a failure Status. */
export function failure(code: number, reason: string, message: string, details?: Details): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason };
  if (details) s.details = details;
  s.code = code;
  return s;
}

/** `pods` or `deployments.apps`: how kube names a resource in messages. */
export const qualifiedResource = (t: ResourceName): string =>
  t.group ? `${t.plural}.${t.group}` : t.plural;

const details = (t: ResourceName, name: string, extra?: Partial<Details>): Details => ({
  name,
  ...(t.group ? { group: t.group } : {}),
  kind: t.plural,
  ...extra,
});

export const notFound = (t: ResourceName, name: string): StatusError =>
  new StatusError(failure(404, 'NotFound', `${qualifiedResource(t)} "${name}" not found`, details(t, name)));

export const alreadyExists = (t: ResourceName, name: string, beingDeleted = false): StatusError =>
  new StatusError(
    failure(409, 'AlreadyExists', `${beingDeleted ? 'object is being deleted: ' : ''}${qualifiedResource(t)} "${name}" already exists`, details(t, name)),
  );

export const conflict = (
  t: ResourceName,
  name: string,
  why = 'the object has been modified; please apply your changes to the latest version and try again',
): StatusError =>
  new StatusError(failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(t)} "${name}": ${why}`, details(t, name)));

/** 422 Invalid, worded as apimachinery's `NewInvalid` (`Kind.group "name" is invalid: ...`). */
export function invalid(kind: string, group: string, name: string, errors: ReadonlyArray<FieldError>): StatusError {
  const texts = errors.map((e) => `${e.field}: ${e.body}`);
  const agg = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  const gk = group ? `${kind}.${group}` : kind;
  return new StatusError(
    failure(422, 'Invalid', `${gk} "${name}" is invalid: ${agg}`, {
      name,
      ...(group ? { group } : {}),
      kind,
      causes: errors.map((e) => ({ reason: e.type, message: e.body, field: e.field })),
    }),
  );
}

export const badRequest = (message: string): StatusError => new StatusError(failure(400, 'BadRequest', message));

export const internalError = (message: string): StatusError =>
  new StatusError(failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }));

/** 415 for a body (or patch) type the server does not take; `contentType` is what was sent. */
/** A PATCH of a content type the resource does not take: kube lists what it does take. */
export const unsupportedMediaType = (builtIn: boolean): StatusError =>
  new StatusError(
    failure(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, ${
        builtIn ? 'application/strategic-merge-patch+json, ' : ''
      }application/apply-patch+yaml`,
    ),
  );

export const methodNotAllowed = (): StatusError =>
  new StatusError(failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'));

export const unauthorized = (): StatusError => new StatusError(failure(401, 'Unauthorized', 'Unauthorized'));

export const expiredList = (): StatusError =>
  new StatusError(failure(410, 'Expired', 'The resourceVersion for the provided list is too old.'));

export const expiredContinue = (): StatusError =>
  new StatusError(
    failure(
      410,
      'Expired',
      'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
    ),
  );

/** 504 for a resourceVersion the server has not reached (after waiting). */
export const tooLargeResourceVersion = (requested: number, current: number): StatusError =>
  new StatusError(
    failure(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    }),
  );

/** 422 on ListOptions, as the apiserver's list/watch option validation answers. */
export const invalidListOptions = (errors: ReadonlyArray<FieldError>): StatusError =>
  invalid('ListOptions', 'meta.k8s.io', '', errors);

/** A Status for a fault or an injected failure with a given code. */
export function statusForCode(code: number, retryAfterSeconds?: number, message?: string): Status {
  const ra = retryAfterSeconds !== undefined && retryAfterSeconds > 0 ? { retryAfterSeconds } : undefined;
  switch (code) {
    case 401:
      return failure(401, 'Unauthorized', message ?? 'Unauthorized');
    case 403:
      return failure(403, 'Forbidden', message ?? 'forbidden: injected fault');
    case 404:
      return failure(404, 'NotFound', message ?? 'the server could not find the requested resource');
    case 409:
      return failure(409, 'Conflict', message ?? 'Operation cannot be fulfilled: injected fault');
    case 410:
      return failure(410, 'Expired', message ?? 'The resourceVersion for the provided list is too old.');
    case 429:
      return failure(429, 'TooManyRequests', message ?? 'Too many requests, please try again later.', ra);
    case 500:
      return failure(500, 'InternalError', `Internal error occurred: ${message ?? 'injected fault'}`, {
        causes: [{ message: message ?? 'injected fault' }],
        ...ra,
      });
    case 503:
      return failure(503, 'ServiceUnavailable', message ?? 'apiserver is shutting down', ra);
    case 504:
      return failure(504, 'Timeout', message ?? 'Timeout: request did not complete within the allowed duration', ra);
    default:
      return failure(code, 'Unknown', message ?? `injected fault ${code}`, ra);
  }
}
