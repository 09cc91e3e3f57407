import type { RequestFacts } from '../rbac/requestAttributes.js';
import { queryBool } from './http.js';

/**
 * What a request is about, as kube-apiserver's RequestInfoFactory works it out from the path: the
 * facts authorization reads (rbac/requestAttributes.ts), one shape for both.
 */
export type RequestInfo = RequestFacts;

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/**
 * Parses `/api/v1/...` and `/apis/{g}/{v}/...` (including the old `/watch/` prefix).
 *
 * @example
 * ```ts
 * requestInfo('GET', '/api/v1/namespaces/ns/pods', new URLSearchParams('watch=true')).verb; // 'watch'
 * ```
 */
export function requestInfo(method: string, pathname: string, query: URLSearchParams): RequestInfo {
  const parts = pathname.split('/').filter((p) => p !== '');
  const nonResource: RequestInfo = {
    isResourceRequest: false,
    verb: method.toLowerCase(),
    group: '',
    version: '',
    namespace: '',
    resource: '',
    name: '',
    subresource: '',
  };
  let group = '';
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    version = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1];
    version = parts[2];
    rest = parts.slice(3);
  } else return nonResource;
  let watchPrefix = false;
  if (rest[0] === 'watch') {
    watchPrefix = true;
    rest = rest.slice(1);
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2])) rest = rest.slice(2);
  }
  if (rest.length === 0) return nonResource;
  const resource = rest[0];
  if (resource === 'namespaces') namespace = '';
  let name = rest[1] ?? '';
  const subresource = rest[2] ?? '';
  let verb: string;
  let nameFieldSelector: string | undefined;
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (watchPrefix) {
        verb = 'watch';
        if (name) nameFieldSelector = `metadata.name=${name}`;
        name = '';
      } else verb = name ? 'get' : queryBool(query, 'watch') ? 'watch' : 'list';
      break;
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = name ? 'delete' : 'deletecollection';
      break;
    default:
      verb = method.toLowerCase();
  }
  return { isResourceRequest: true, verb, group, version, namespace, resource, name, subresource, nameFieldSelector };
}
