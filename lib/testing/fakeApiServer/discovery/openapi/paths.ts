import type { JsonObject, ResourceType } from '../../resources.js';

const query = (name: string, description: string): JsonObject => ({ name, in: 'query', description, schema: { type: 'string', uniqueItems: true } });
const DRY_RUN = query('dryRun', 'When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed');
const FIELD_MANAGER = query('fieldManager', 'fieldManager is a name associated with the actor or entity that is making these changes.');
// Its presence on PATCH is what tells kubectl the server validates fields (so kubectl sends fieldValidation=Strict).
const FIELD_VALIDATION = query('fieldValidation', 'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields. Valid values are: - Ignore - Warn - Strict');
const FORCE = { name: 'force', in: 'query', description: 'Force is going to "force" Apply requests.', schema: { type: 'boolean', uniqueItems: true } };
const PRETTY = query('pretty', "If 'true', then the output is pretty printed.");
const LIST_PARAMS = ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch'].map((n) =>
  query(n, `the ${n} list option`),
);
const pathParam = (name: string, description: string): JsonObject => ({ name, in: 'path', description, required: true, schema: { type: 'string', uniqueItems: true } });
const NAMESPACE = pathParam('namespace', 'object name and auth scope, such as for teams and projects');

const json = (ref: string) => ({ 'application/json': { schema: { $ref: ref } }, 'application/yaml': { schema: { $ref: ref } } });

/** The model references one resource's operations answer with. */
export interface PathRefs {
  readonly item: string;
  readonly list: string;
  readonly status: string;
  /** The type serves `/status`. */
  readonly hasStatus: boolean;
}

/**
 * The OpenAPI v3 paths kube publishes for one resource: list (and across namespaces), create and
 * deletecollection on the collection; get, replace, patch and delete by name; and the status
 * subresource where the type has one. Each operation carries `x-kubernetes-action` and `x-kubernetes-group-version-kind`.
 */
export function resourcePaths(type: ResourceType, refs: PathRefs): JsonObject {
  const gvk = { group: type.group, version: type.version, kind: type.kind };
  const root = type.group ? `/apis/${type.group}/${type.version}` : `/api/${type.version}`;
  const collection = type.namespaced ? `${root}/namespaces/{namespace}/${type.plural}` : `${root}/${type.plural}`;
  const scoped = type.namespaced ? 'Namespaced' : '';
  const op = (action: string, id: string, ref: string, parameters: JsonObject[], code = '200', body = false): JsonObject => ({
    description: `${action} ${type.kind}`,
    operationId: id,
    tags: [type.group || 'core'],
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: json(refs.item) } } : {}),
    responses: { [code]: { description: code === '201' ? 'Created' : 'OK', content: json(ref) }, '401': { description: 'Unauthorized' } },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
  });
  const writes = [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION];
  const patchBody = {
    required: true,
    content: Object.fromEntries(
      ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', ...(type.builtIn ? ['application/strategic-merge-patch+json'] : [])].map((t) => [t, { schema: { type: 'object' } }]),
    ),
  };
  const byName = (ref: string, what: string) => ({
    get: op('get', `read${scoped}${type.kind}${what}`, ref, []),
    put: op('put', `replace${scoped}${type.kind}${what}`, ref, writes, '200', true),
    patch: { ...op('patch', `patch${scoped}${type.kind}${what}`, ref, [...writes, FORCE]), requestBody: patchBody },
  });
  const paths: JsonObject = {
    [collection]: {
      get: op('list', `list${scoped}${type.kind}`, refs.list, LIST_PARAMS),
      post: op('post', `create${scoped}${type.kind}`, refs.item, writes, '201', true),
      delete: op('deletecollection', `deleteCollection${scoped}${type.kind}`, '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status', LIST_PARAMS),
      parameters: [...(type.namespaced ? [NAMESPACE] : []), PRETTY],
    },
    [`${collection}/{name}`]: {
      ...byName(refs.item, ''),
      delete: op('delete', `delete${scoped}${type.kind}`, '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status', [DRY_RUN]),
      parameters: [pathParam('name', `name of the ${type.kind}`), ...(type.namespaced ? [NAMESPACE] : []), PRETTY],
    },
  };
  if (refs.hasStatus) {
    paths[`${collection}/{name}/status`] = {
      ...byName(refs.status, 'Status'),
      parameters: [pathParam('name', `name of the ${type.kind}`), ...(type.namespaced ? [NAMESPACE] : []), PRETTY],
    };
  }
  if (type.namespaced) {
    paths[`${root}/${type.plural}`] = { get: op('list', `list${type.kind}ForAllNamespaces`, refs.list, LIST_PARAMS), parameters: [PRETTY] };
  }
  return paths;
}
