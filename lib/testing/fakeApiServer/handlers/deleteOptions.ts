import type { DeleteOptions } from '../registry/store.js';
import type { ResourceType } from '../resources.js';
import { hasStatusSubresource } from '../registry/statusStrategy.js';

/**
 * Whether `type` serves `subresource` for `verb`: `/status` (get, update, patch) where the type
 * has a status subresource, a Namespace's `/finalize` (update). Anything else is a 404, as kube.
 *
 * @example
 * ```ts
 * servesSubresource(podsType, 'status', 'patch'); // true
 * servesSubresource(configMapsType, 'status', 'update'); // false
 * ```
 */
export function servesSubresource(type: ResourceType, subresource: string, verb: string): boolean {
  if (subresource === 'status') return hasStatusSubresource(type) && (verb === 'get' || verb === 'update' || verb === 'patch');
  return subresource === 'finalize' && type.id === 'namespaces' && verb === 'update';
}

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
