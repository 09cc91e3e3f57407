import type { Change } from '../storage/history.js';
import { builtInResourceTypes } from '../registry/builtInTypes.js';
import { customResourceDefinitionType, definitionFromCrd } from '../registry/customResourceDefinitions.js';
import type { JsonObject, ResourceType, ResourceTypes } from '../resources.js';

// kube-apiserver's apiextensions controller that serves what CustomResourceDefinitions define.

/**
 * The built-in types plus CustomResourceDefinitions: what the fake server serves from the start.
 *
 * @example
 * ```ts
 * const types = new ResourceTypes(servedAtStart);
 * ```
 */
export const servedAtStart: ReadonlyArray<ResourceType> = Object.freeze([...builtInResourceTypes, customResourceDefinitionType]);

/**
 * A storage listener that serves what CustomResourceDefinitions define, as kube-apiserver's
 * apiextensions controller does: a created or updated CRD registers its resource (discovery, list,
 * watch and writes follow at once), a deleted one unregisters it.
 *
 * @example
 * ```ts
 * storage.onChange(serveCustomResourceDefinitions(types));
 * ```
 */
export function serveCustomResourceDefinitions(types: ResourceTypes): (change: Change) => void {
  return (change) => {
    if (change.resource.id !== customResourceDefinitionType.id) return;
    const def = definitionFromCrd(JSON.parse(change.obj.json) as JsonObject);
    if (!def) return;
    if (change.type === 'DELETED') types.unregister(def);
    else types.register(def);
  };
}
