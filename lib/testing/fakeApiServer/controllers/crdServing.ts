import type { Change } from '../storage/history.js';
import { customResourceDefinitionType, definitionsFromCrd } from '../registry/customResourceDefinitions.js';
import type { ResourceTypes } from '../registry/resourceTypes.js';
import type { JsonObject } from '../resources.js';

// kube-apiserver's apiextensions controller that serves what CustomResourceDefinitions define.

/**
 * A storage listener that serves what CustomResourceDefinitions define, as kube-apiserver's
 * apiextensions controller does: a created or updated CRD serves every served version of its
 * resource (discovery, list, watch and writes follow at once; objects stored in the storage
 * version), a deleted one stops serving it.
 *
 * @example
 * ```ts
 * storage.onChange(serveCustomResourceDefinitions(types));
 * ```
 */
export function serveCustomResourceDefinitions(types: ResourceTypes): (change: Change) => void {
  return (change) => {
    if (change.resource.id !== customResourceDefinitionType.id) return;
    const served = definitionsFromCrd(JSON.parse(change.obj.json) as JsonObject);
    if (!served) return;
    if (change.type === 'DELETED') types.unregister(served.definitions[0]);
    else types.registerVersions(served.definitions, served.storageVersion);
  };
}
