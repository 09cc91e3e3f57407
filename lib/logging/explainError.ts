import { ApiStatusError, type RxkubeError } from '../errors.js';
import { ReflectorError } from '../reflector/reflectorError.js';
import { ApiServerUnreachableError } from '../transport/unreachableError.js';

const advice: Readonly<Record<number, (resource: string) => string>> = {
  401: () =>
    "the API server refused the credentials (401 Unauthorized); check the kubeconfig's user (token, client certificate or exec plugin)",
  403: (resource) => `forbidden (403); the user needs list and watch on ${resource} (RBAC)`,
  404: () =>
    'the server does not serve this resource (404); is the CustomResourceDefinition installed (and are the group, version and plural right)?',
};

/**
 * One line saying what went wrong for which resource and what to do about it, for an error an
 * informer recovered from (it keeps retrying): a 404 asks whether the CustomResourceDefinition is
 * installed, a 401 points at the kubeconfig's user, a 403 at RBAC, an unreachable server (or no
 * kubeconfig at all) leads with that; other errors keep their own message, which already says
 * what happened.
 *
 * @example
 * ```ts
 * explainError(err, 'widgets.example.com');
 * // "widgets.example.com: the server does not serve this resource (404); is the CustomResourceDefinition installed ...?
 * //  (list failed: ...; relisting after a backoff)"
 * ```
 */
export function explainError(error: RxkubeError, resource?: string): string {
  // Nothing answers at all: that is the news, whatever the request was ("no kubeconfig found: ...").
  if (error instanceof ReflectorError && error.cause instanceof ApiServerUnreachableError) {
    const what = `${error.cause.message} (the informer keeps retrying)`;
    return resource === undefined ? what : `${resource}: ${what}`;
  }
  const status =
    error instanceof ReflectorError
      ? error.statusCode
      : error instanceof ApiStatusError
        ? error.statusCode
        : undefined;
  const explain = status === undefined ? undefined : advice[status];
  if (explain && resource !== undefined) return `${resource}: ${explain(resource)} (${error.message})`;
  if (explain) return `${explain('this resource')} (${error.message})`;
  return resource !== undefined && !error.message.startsWith(`${resource}:`)
    ? `${resource}: ${error.message}`
    : error.message;
}
