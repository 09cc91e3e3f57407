import { ConfigError } from '../configError.js';
import type { Resource } from './resource.js';

/**
 * The collection path of a resource: `/api/v1/pods` (core, all namespaces),
 * `/api/v1/namespaces/{ns}/pods` (one namespace), `/apis/{group}/{version}/{plural}` (a group,
 * custom resources included). A cluster-scoped resource takes no namespace.
 *
 * @example
 * ```ts
 * resourcePath({ group: 'apps', version: 'v1', plural: 'deployments', namespaced: true }, 'prod');
 * // '/apis/apps/v1/namespaces/prod/deployments'
 * ```
 */
export function resourcePath(resource: Resource, namespace?: string): string {
  const prefix = resource.group
    ? `/apis/${seg(resource.group)}/${seg(resource.version)}`
    : `/api/${seg(resource.version)}`;
  if (namespace) {
    if (!resource.namespaced) {
      throw new ConfigError(
        'namespace',
        `${describe(resource)} is cluster-scoped: a namespace (${namespace}) makes no sense for it`,
        {
          value: namespace,
        },
      );
    }
    return `${prefix}/namespaces/${seg(namespace)}/${seg(resource.plural)}`;
  }
  return `${prefix}/${seg(resource.plural)}`;
}

function seg(s: string): string {
  return encodeURIComponent(s);
}

function describe(resource: Resource): string {
  return resource.group ? `${resource.plural}.${resource.group}` : resource.plural;
}
