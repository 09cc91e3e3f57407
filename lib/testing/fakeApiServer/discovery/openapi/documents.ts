import { createHash } from 'node:crypto';
import type { JsonObject, ResourceType } from '../../resources.js';
import { crdVersionSchema, customResourceListModel, customResourceModel, customResourceModelName } from './customResourceSchemas.js';
import { modelClassOf, ModelSchemas, type ClientNodeModels } from './modelSchemas.js';
import { resourcePaths } from './paths.js';

/**
 * What the OpenAPI documents are built from: the served types, the stored CustomResourceDefinitions
 * (their schemas) and client-node's models (the built-in types' schemas).
 *
 * @example
 * ```ts
 * const source: OpenApiSource = { types: types.all(), crds: new Map(), models: await import('@kubernetes/client-node'), hasStatus: () => false };
 * ```
 */
export interface OpenApiSource {
  readonly types: ReadonlyArray<ResourceType>;
  /** CustomResourceDefinition objects by the id of the resource they define (`widgets.example.com`). */
  readonly crds: ReadonlyMap<string, JsonObject>;
  readonly models: ClientNodeModels;
  /** Whether a type serves `/status` (its strategy says). */
  readonly hasStatus: (type: ResourceType) => boolean;
}

const REF = '#/components/schemas/';

// Built-in models do not change while the process runs: one ModelSchemas per group, reused.
const byModels = new WeakMap<object, Map<string, ModelSchemas>>();
function modelSchemasFor(models: ClientNodeModels, group: string): ModelSchemas {
  let groups = byModels.get(models);
  if (!groups) byModels.set(models, (groups = new Map()));
  let m = groups.get(group);
  if (!m) groups.set(group, (m = new ModelSchemas(models, group)));
  return m;
}

/** `api/v1`, `apis/apps/v1`: a group-version's key in the v3 discovery document. */
export const groupVersionPath = (group: string, version: string): string => (group ? `apis/${group}/${version}` : `api/${version}`);

/** The group-versions served, each with its types, in discovery order (core first). */
export function groupVersions(types: ReadonlyArray<ResourceType>): Map<string, ResourceType[]> {
  const gvs = new Map<string, ResourceType[]>();
  for (const t of [...types].sort((a, b) => (a.group === b.group ? 0 : a.group === '' ? -1 : b.group === '' ? 1 : a.group < b.group ? -1 : 1))) {
    const key = groupVersionPath(t.group, t.version);
    gvs.set(key, [...(gvs.get(key) ?? []), t]);
  }
  return gvs;
}

/**
 * The OpenAPI v3 document of one group-version (`/openapi/v3/apis/apps/v1`): its resources' paths
 * and the models they use, built-ins from client-node's models, custom resources from their CRD's
 * schema. Undefined for a group-version not served.
 */
export function groupVersionDocument(source: OpenApiSource, gvPath: string): JsonObject | undefined {
  const types = groupVersions(source.types).get(gvPath);
  if (!types) return undefined;
  const { group } = types[0];
  const models = modelSchemasFor(source.models, group);
  const schemas: JsonObject = {};
  let paths: JsonObject = {};
  for (const t of types) {
    const gvk = { group: t.group, version: t.version, kind: t.kind };
    const cls = t.builtIn ? modelClassOf(source.models, t.group, t.version, t.kind) : undefined;
    let item: string;
    let list: string;
    if (cls) {
      item = models.add(cls, gvk)!;
      list = models.add(`${cls}List`, { ...gvk, kind: `${t.kind}List` }) ?? item;
    } else {
      const meta = models.add('V1ObjectMeta')!;
      const listMeta = models.add('V1ListMeta')!;
      item = customResourceModelName(t.group, t.version, t.kind);
      list = `${item}List`;
      schemas[item] = customResourceModel(t, crdVersionSchema(source.crds.get(t.id), t), REF + meta);
      schemas[list] = customResourceListModel(t, REF + item, REF + listMeta);
    }
    paths = { ...paths, ...resourcePaths(t, { item: REF + item, list: REF + list, status: REF + item, hasStatus: source.hasStatus(t) }) };
  }
  models.add('V1Status');
  for (const [name, schema] of models.schemas) schemas[name] ??= schema;
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: `v1.34.0-rxkube-fake` },
    paths,
    components: { schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) },
  };
}

/** kube-openapi's ETag of a document: the uppercase hex SHA-512 of its bytes. */
export const documentHash = (body: string): string => createHash('sha512').update(body).digest('hex').toUpperCase();

/** The serialised v3 document of every group-version served, with its hash. */
export function allGroupVersionDocuments(source: OpenApiSource): Map<string, { body: string; hash: string }> {
  const out = new Map<string, { body: string; hash: string }>();
  for (const gv of groupVersions(source.types).keys()) {
    const body = JSON.stringify(groupVersionDocument(source, gv));
    out.set(gv, { body, hash: documentHash(body) });
  }
  return out;
}

/** The OpenAPI v3 discovery document (`/openapi/v3`): each group-version and its hashed URL. */
export function discoveryV3(docs: ReadonlyMap<string, { hash: string }>): JsonObject {
  return { paths: Object.fromEntries([...docs].map(([gv, d]) => [gv, { serverRelativeURL: `/openapi/v3/${gv}?hash=${d.hash}` }])) };
}

const toV2Refs = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(toV2Refs);
  if (typeof v !== 'object' || v === null) return v;
  // v3's `allOf: [{$ref}]` (a reference with a description of its own) is `$ref` beside the
  // description in kube's v2, which is what v2 readers (kubectl's proto models) follow.
  const { allOf, ...rest } = v as { allOf?: unknown; [k: string]: unknown };
  if (Array.isArray(allOf) && allOf.length === 1 && typeof (allOf[0] as { $ref?: unknown }).$ref === 'string' && !('$ref' in rest)) {
    return toV2Refs({ ...rest, $ref: (allOf[0] as { $ref: string }).$ref });
  }
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [k, k === '$ref' && typeof x === 'string' ? x.replace(REF, '#/definitions/') : toV2Refs(x)]),
  );
};

/**
 * The Swagger 2.0 document (`/openapi/v2`, JSON): every group-version's paths and models merged,
 * request bodies as `in: body` parameters and responses with a `schema`, as kube merges them.
 */
export function swaggerV2(source: OpenApiSource): JsonObject {
  const paths: JsonObject = {};
  const definitions: JsonObject = {};
  for (const gv of groupVersions(source.types).keys()) {
    const doc = groupVersionDocument(source, gv)!;
    Object.assign(definitions, (doc['components'] as { schemas: JsonObject }).schemas);
    for (const [p, item] of Object.entries(doc['paths'] as JsonObject)) {
      paths[p] = Object.fromEntries(
        Object.entries(item as JsonObject).map(([verb, o]) => {
          if (verb === 'parameters') return [verb, (o as JsonObject[]).map(({ schema, ...rest }) => ({ ...rest, ...(schema as JsonObject) }))];
          const { requestBody, responses, parameters, ...op } = o as JsonObject;
          const body = (requestBody as { content?: { [t: string]: { schema: unknown } } } | undefined)?.content;
          const bodySchema = body ? Object.values(body)[0]?.schema : undefined;
          const params = ((parameters as JsonObject[] | undefined) ?? []).map(({ schema, ...rest }) => ({ ...rest, ...(schema as JsonObject) }));
          return [
            verb,
            {
              ...op,
              consumes: body ? Object.keys(body) : ['*/*'],
              produces: ['application/json', 'application/yaml'],
              parameters: bodySchema ? [...params, { name: 'body', in: 'body', required: true, schema: bodySchema }] : params,
              responses: Object.fromEntries(
                Object.entries(responses as JsonObject).map(([code, r]) => {
                  const content = (r as { content?: { [t: string]: { schema: unknown } } }).content;
                  return [code, { description: (r as { description: string }).description, ...(content ? { schema: Object.values(content)[0].schema } : {}) }];
                }),
              ),
            },
          ];
        }),
      );
    }
  }
  return toV2Refs({ swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.34.0-rxkube-fake' }, paths, definitions }) as JsonObject;
}
