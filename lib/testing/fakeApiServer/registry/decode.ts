import type { JsonObject, ResourceType } from '../resources.js';
import { badRequest, internalError } from '../status.js';
import { checkMetadataTypes } from './objectMeta.js';
import type { Strategy } from './strategy.js';

// The decode stage of a write (kube's codec and the handlers' checks before admission): the body
// is an object of the URL's kind and apiVersion, its metadata has the Go types, its namespace is
// the URL's; the type's own conversion into the stored form runs here (Events). 400 otherwise.

/**
 * A body's kind and apiVersion must be the resource's, as the API server decodes it: a Secret
 * POSTed to configmaps is a 400, not a Secret stored among the ConfigMaps (which informers, which
 * drop objects of another kind, would never see). Either may be left out: it is the resource's.
 */
function checkKind(type: ResourceType, obj: JsonObject): void {
  const { kind, apiVersion } = obj;
  if (kind !== undefined && kind !== type.kind) {
    throw badRequest(`${String(kind)} in version "${type.version}" cannot be handled as a ${type.kind}: the kind does not match the resource`);
  }
  if (apiVersion !== undefined && apiVersion !== type.apiVersion) {
    throw badRequest(`the API version in the data (${String(apiVersion)}) does not match the expected API version (${type.apiVersion})`);
  }
}

/**
 * The object a write's `body` decodes to (the body itself, completed: kind, metadata, the URL's
 * namespace), converted to the version objects are stored in (`storageApiVersion`: the pipeline
 * runs on the storage form, as kube's runs on its internal one), or the decoder's 400.
 *
 * @example
 * ```ts
 * const obj = decodeBody(configMapStrategy, 'ns', { metadata: { name: 'a' } }, 'v1'); // { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' } }
 * ```
 */
export function decodeBody(strategy: Strategy, namespace: string, body: unknown, storageApiVersion: string): JsonObject {
  const { type } = strategy;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('the body of the request is not a JSON object');
  let obj = body as JsonObject;
  checkKind(type, obj);
  checkMetadataTypes(type, obj.metadata);
  obj.apiVersion = storageApiVersion;
  obj.kind ??= type.kind;
  const meta = (obj.metadata ??= {}) as { namespace?: string };
  if (type.namespaced) {
    if (meta.namespace && meta.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    meta.namespace = namespace;
  } else delete meta.namespace;
  if (strategy.hooks.normalize) obj = strategy.hooks.normalize(obj);
  return obj;
}

/**
 * What a create's body may not carry: a resourceVersion (kube's `BeforeCreate`).
 *
 * @example
 * ```ts
 * checkCreatable(obj); // throws for metadata.resourceVersion
 * ```
 */
export function checkCreatable(obj: JsonObject): void {
  if ((obj.metadata as { resourceVersion?: unknown }).resourceVersion) throw internalError('resourceVersion should not be set on objects to be created');
}
