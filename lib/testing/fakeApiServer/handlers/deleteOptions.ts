import type { DeleteOptions } from '../registry/store.js';

/**
 * A DELETE's options: the body (a DeleteOptions), or, without one, the query parameters
 * (`propagationPolicy`, `orphanDependents`, `gracePeriodSeconds`), as kube-apiserver decodes them.
 *
 * @example
 * ```ts
 * deleteOptions(undefined, new URLSearchParams('propagationPolicy=Foreground')); // { propagationPolicy: 'Foreground' }
 * ```
 */
export function deleteOptions(body: unknown, query: URLSearchParams): DeleteOptions {
  if (body !== undefined && body !== null) return body as DeleteOptions;
  const policy = query.get('propagationPolicy');
  const orphan = query.get('orphanDependents');
  return {
    ...(policy !== null ? { propagationPolicy: policy as DeleteOptions['propagationPolicy'] } : {}),
    ...(orphan !== null ? { orphanDependents: orphan === 'true' } : {}),
  };
}
