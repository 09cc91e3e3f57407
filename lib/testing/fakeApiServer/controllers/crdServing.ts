import type { Change } from '../storage/history.js';
import { customResourceDefinitionType, definitionsFromCrd } from '../registry/customResourceDefinitions.js';
import type { ResourceTypes } from '../registry/resourceTypes.js';
import type { JsonObject, ResourceDefinition, ResourceType } from '../resources.js';
import type { Storage } from '../storage/storage.js';
import { parseStored, serialize, storedObject } from '../storage/storedObject.js';

// kube-apiserver's apiextensions controller that serves what CustomResourceDefinitions define.

// Names another served custom resource of the group already holds (kube's naming controller refuses
// them to the later CRD, crdNames.ts): resources (plural, singular, short names) and kinds.
function clashes(types: ResourceTypes, def: ResourceDefinition): boolean {
  const id = `${def.plural}.${def.group}`;
  const mine = { resources: [def.plural, def.singular ?? def.kind.toLowerCase(), ...(def.shortNames ?? [])], kinds: [def.kind, `${def.kind}List`] };
  return types.all().some(
    (t) =>
      !t.builtIn &&
      t.group === def.group &&
      t.id !== id &&
      (mine.resources.some((r) => r === t.plural || r === t.singular || t.shortNames.includes(r)) || mine.kinds.some((k) => k === t.kind || k === t.listKind)),
  );
}

const namesRefused = (crd: JsonObject): boolean =>
  ((crd['status'] as { conditions?: Array<{ type?: unknown; status?: unknown }> } | undefined)?.conditions ?? []).some((c) => c.type === 'NamesAccepted' && c.status === 'False');

// Objects kept from an earlier CRD of the resource read in the version served now (as conversion
// None serves them): their stored apiVersion is rewritten, at their revision, without an event.
function serveStoredInVersion(storage: Storage, type: ResourceType): void {
  for (const s of [...storage.snapshot(type, storage.resourceVersion)]) {
    const obj = parseStored(s);
    if (obj['apiVersion'] === type.apiVersion) continue;
    obj['apiVersion'] = type.apiVersion;
    storage.rewrite(type, storedObject(type, serialize(obj), s.rv));
  }
}

/**
 * A storage listener that serves what CustomResourceDefinitions define, as kube-apiserver's
 * apiextensions controller does: a created or updated CRD serves every served version of its
 * resource (discovery, list, watch and writes follow at once; objects stored in the storage version)
 * unless its names are refused (another served CRD of the group
 * holds them, or its NamesAccepted condition is False); a deleted one unregisters it. Objects kept
 * from an earlier CRD of the resource are served in the version served now.
 *
 * @example
 * ```ts
 * storage.onChange(serveCustomResourceDefinitions(types, storage));
 * ```
 */
export function serveCustomResourceDefinitions(types: ResourceTypes, storage?: Storage): (change: Change) => void {
  return (change) => {
    if (change.resource.id !== customResourceDefinitionType.id) return;
    const crd = JSON.parse(change.obj.json) as JsonObject;
    const served = definitionsFromCrd(crd);
    if (!served) return;
    const def = served.definitions[0];
    if (change.type === 'DELETED' || namesRefused(crd)) types.unregister(def);
    else if (!clashes(types, def)) {
      const [storageType] = types.registerVersions(served.definitions, served.storageVersion, served.versioning);
      if (storage && storageType) serveStoredInVersion(storage, storageType);
    }
  };
}
