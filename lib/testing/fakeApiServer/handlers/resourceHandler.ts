import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UserInfo } from '../admission/attributes.js';
import { createOnUpdateCheck, type AuthorizationAttributes } from '../auth/authorizer.js';
import type { Principal } from '../auth/principal.js';
import { writeManager } from '../fields/fieldManager.js';
import { patchTypeOf } from '../registry/patch.js';
import type { Strategy } from '../registry/strategy.js';
import type { WriteRequestOptions } from '../registry/writeRequest.js';
import type { ResourceType } from '../resources.js';
import type { StoredObject } from '../storage/storedObject.js';
import { failure, invalid, methodNotAllowed, notFound, StatusError } from '../status.js';
import { compileSelectors } from '../storage/selectors.js';
import { shardOf } from '../storage/shardSelector.js';
import { notSupported } from '../schema/fieldErrors.js';
import { warningHeaders, writeOptionsOf } from '../schema/writeQuery.js';
import { parseBody, parseJsonBody, readBody } from '../wire/body.js';
import { checkFieldValidation } from '../wire/fieldValidation.js';
import { negotiateOutput, outputFor, subresourceOutput, type Output } from '../wire/outputForm.js';
import { readObjectBody } from '../wire/protobuf/protobufBody.js';
import { deleteOptions } from './deleteOptions.js';
import { queryBool, writeJson } from './http.js';
import { listObjects, writeList } from './listHandler.js';
import { parseListQuery } from './listOptions.js';
import type { RequestInfo } from './requestInfo.js';
import type { ServerContext } from './serverContext.js';
import { serveWatch } from './watchHandler.js';
import { tableObjectJson, tableOutputOf, writeTableList } from './tableOutput.js';
import { subresourceHost } from './subresourceHost.js';
import { bodyForWrite, convertedForRead, patchAcrossVersions, watchLineConverter } from './conversionStage.js';

const OPTIONS_KIND: { readonly [verb: string]: string } = { create: 'CreateOptions', update: 'UpdateOptions', patch: 'PatchOptions', delete: 'DeleteOptions', deletecollection: 'DeleteOptions' };
const SUBRESOURCE_VERB: { readonly [verb: string]: string } = { get: 'get', update: 'update', patch: 'patch', create: 'create' };

/**
 * The `dryRun` query parameter of a write (kube's `ValidateDryRun`): absent, or every value `All`;
 * anything else is a 422 on the verb's options.
 *
 * @example
 * ```ts
 * dryRunOf(new URLSearchParams('dryRun=All'), 'create'); // true
 * ```
 */
export function dryRunOf(query: URLSearchParams, verb: string): boolean {
  const values = query.getAll('dryRun');
  if (values.length === 0) return false;
  if (values.every((v) => v === 'All')) return true;
  throw invalid(OPTIONS_KIND[verb] ?? 'CreateOptions', 'meta.k8s.io', '', [notSupported('dryRun', values, ['All'])]);
}

/** Who a request is, as admission sees it: the authenticated user, and the group every authenticated user is in. */
const userOf = (p: Principal | undefined): UserInfo | undefined =>
  p && {
    username: p.user,
    groups: p.groups.includes('system:authenticated') ? p.groups : [...p.groups, 'system:authenticated'],
    ...(p.uid !== undefined && { uid: p.uid }),
    ...(p.extra && { extra: p.extra }),
  };

/** Whether `type` serves `subresource` for `verb` (kube: a 404 otherwise). */
function servesSubresource(strategy: Strategy, subresource: string, verb: string): boolean {
  const s = strategy.subresources[subresource];
  return s !== undefined && s.verbs.includes(SUBRESOURCE_VERB[verb] as never);
}

/** The parent of a subresource's GET; a missing one is named as kube's ScaleREST names it (`deployments/scale.apps "x" not found`). */
function getParent(ctx: ServerContext, type: ResourceType, ns: string, name: string, namedAs: string | undefined): StoredObject {
  try {
    return ctx.registry.get(type, ns, name);
  } catch (e) {
    if (namedAs === undefined || !(e instanceof StatusError) || e.status.code !== 404) throw e;
    throw notFound({ plural: `${type.plural}/${namedAs}`, group: type.group }, name);
  }
}

/** Serves one request on a resource path (get, list, watch, create, update, patch, delete, deletecollection). */
export async function handleResource(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, info: RequestInfo, type: ResourceType, query: URLSearchParams, principal?: Principal): Promise<void> {
  if (!type.namespaced && info.namespace) throw notFound(type, info.name);
  const strategy = ctx.types.strategyOf(type);
  const ns = type.namespaced ? info.namespace : '';
  if (info.subresource) {
    const served = strategy.subresources[info.subresource];
    // kube: no route for an unknown subresource (404), a route without the method (405).
    if (!served) throw new StatusError(failure(404, 'NotFound', 'the server could not find the requested resource'));
    if (served.connect) {
      const answer = served.connect(subresourceHost(ctx, {}), type.namespaced ? info.namespace : '', info.name, { query, upgrade: req.headers.upgrade !== undefined });
      res.writeHead(answer.code, { 'Content-Type': answer.contentType, 'Content-Length': Buffer.byteLength(answer.body) });
      res.end(answer.body);
      return;
    }
    if (!servesSubresource(strategy, info.subresource, info.verb)) throw methodNotAllowed();
  }
  // A deprecated version warns on every request (AX customresource_handler.go).
  if (strategy.deprecationWarning) res.setHeader('Warning', `299 - ${JSON.stringify(strategy.deprecationWarning)}`);
  const sub = info.subresource || undefined;
  const storageApiVersion = ctx.types.storageOf(type).apiVersion;
  const view = sub ? strategy.subresources[sub]?.form : undefined;
  const full = view ? subresourceOutput(view) : outputFor('full', type, storageApiVersion);
  switch (info.verb) {
    case 'get': {
      if (view) {
        writeJson(res, 200, full.object(getParent(ctx, type, ns, info.name, view.missingParent === 'subresource' ? sub : undefined).json));
        return;
      }
      // The one place a read's form is chosen (wire/outputForm.ts): the object, its metadata or a Table.
      const form = negotiateOutput(req.headers.accept, 'get');
      const table = tableOutputOf(ctx, type, form, query);
      const [stored] = await convertedForRead(ctx, type, [ctx.registry.get(type, ns, info.name)]);
      writeJson(res, 200, table ? tableObjectJson(ctx, table, stored) : outputFor(form, type, storageApiVersion).object(stored.json));
      return;
    }
    case 'list': {
      const q = parseListQuery(query, false, ctx.watchList);
      const form = negotiateOutput(req.headers.accept, 'list');
      const table = tableOutputOf(ctx, type, form, query);
      const shard = shardOf(query, ctx.shardedListAndWatch);
      const listed = await listObjects(ctx, type, ns || undefined, q, shard);
      const result = { ...listed, items: await convertedForRead(ctx, type, listed.items) };
      if (table) writeTableList(res, ctx, table, result);
      else await writeList(res, outputFor(form, type, storageApiVersion), result, shard);
      return;
    }
    case 'watch': {
      if (info.nameFieldSelector) {
        const fs = query.get('fieldSelector');
        query.set('fieldSelector', fs ? `${fs},${info.nameFieldSelector}` : info.nameFieldSelector);
      }
      const q = parseListQuery(query, true, ctx.watchList);
      const form = negotiateOutput(req.headers.accept, 'watch');
      const output = outputFor(form, type, storageApiVersion);
      await serveWatch(ctx, res, type, ns || undefined, q, output, shardOf(query, ctx.shardedListAndWatch), tableOutputOf(ctx, type, form, query), watchLineConverter(ctx, type));
      return;
    }
    default:
      await handleWrite(ctx, req, res, info, type, query, full, { ns, sub, user: userOf(principal), principal });
  }
}

/** The write verbs: options from the query, then the store's one path; the answer in the request's version. */
async function handleWrite(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  info: RequestInfo,
  type: ResourceType,
  query: URLSearchParams,
  out: Output,
  { ns, sub, user, principal }: { ns: string; sub: string | undefined; user: UserInfo | undefined; principal: Principal | undefined },
): Promise<void> {
  const { registry } = ctx;
  const contentType = req.headers['content-type'];
  const writeOptions = writeOptionsOf(query, info.verb);
  const deprecation = ctx.types.strategyOf(type).deprecationWarning;
  if (deprecation) writeOptions.warnings.push(deprecation);
  // The answer in the request's version (through the conversion webhook when it takes one).
  const answer = async (stored: StoredObject): Promise<string> => out.object((await convertedForRead(ctx, type, [stored], 'write'))[0].json);
  const base: WriteRequestOptions = { ...writeOptions, dryRun: dryRunOf(query, info.verb), ...(user ? { user } : {}) };
  const agent = req.headers['user-agent'];
  switch (info.verb) {
    case 'create': {
      const action = sub ? ctx.types.strategyOf(type).subresources[sub]?.action : undefined;
      if (action) {
        const { code, answer: status } = await action(subresourceHost(ctx, base), ns, info.name, parseJsonBody(await readBody(req)));
        writeJson(res, code, JSON.stringify(status), warningHeaders(writeOptions));
        return;
      }
      if (info.name) throw methodNotAllowed();
      const body = await readObjectBody(req, contentType, type);
      await checkFieldValidation(type, body, query, res);
      const converted = await bodyForWrite(ctx, type, body);
      const stored = await registry.create(converted.type, ns, converted.body, { ...base, owner: { manager: writeManager(query, agent, undefined, 'CreateOptions') } });
      writeJson(res, 201, await answer(stored), warningHeaders(writeOptions));
      return;
    }
    case 'update': {
      const body = await readObjectBody(req, contentType, type);
      await checkFieldValidation(type, body, query, res);
      const converted = await bodyForWrite(ctx, type, body);
      const stored = await registry.update(converted.type, ns, info.name, converted.body, sub, { ...base, owner: { manager: writeManager(query, agent) } });
      writeJson(res, 200, await answer(stored), warningHeaders(writeOptions));
      return;
    }
    case 'patch': {
      const patchType = patchTypeOf(contentType, ctx.types.strategyOf(type).strategicMergePatch);
      const manager = writeManager(query, agent, patchType);
      const body = await parseBody(await readBody(req), contentType);
      const across = await patchAcrossVersions(ctx, type, ns, info.name, patchType, body, sub, { ...base, owner: { manager } });
      const authorizeCreate = principal && patchType === 'apply' ? createOnUpdateCheck(ctx.authorizers, createAttributes(principal, req, info, ns)) : undefined;
      const { stored, created } = across
        ? { stored: across, created: false }
        : await registry.patch(type, ns, info.name, patchType, body, sub, { ...base, manager, force: queryBool(query, 'force') ?? false, ...(authorizeCreate && { authorizeCreate }) });
      writeJson(res, created ? 201 : 200, await answer(stored), warningHeaders(writeOptions));
      return;
    }
    case 'delete': {
      const options = deleteOptions(parseJsonBody(await readBody(req)), query);
      const { stored, deleted } = await registry.delete(type, ns, info.name, options, base);
      if (!deleted || ctx.types.strategyOf(type).deleteAnswer === 'object') writeJson(res, 200, await answer(stored), warningHeaders(writeOptions));
      else {
        const details = { name: stored.name, ...(type.group ? { group: type.group } : {}), kind: type.plural, uid: stored.uid };
        writeJson(res, 200, JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details }), warningHeaders(writeOptions));
      }
      return;
    }
    case 'deletecollection': {
      const options = deleteOptions(parseJsonBody(await readBody(req)), query);
      const selectors = compileSelectors(query.get('labelSelector') ?? undefined, query.get('fieldSelector') ?? undefined, type);
      const deleted = await registry.deleteCollection(type, ns || undefined, selectors, options, base);
      const items = (await convertedForRead(ctx, type, deleted, 'write')).map((d) => out.object(d.json)).join(',');
      writeJson(res, 200, `{"kind":"${type.listKind}","apiVersion":"${type.apiVersion}","metadata":{"resourceVersion":"${ctx.storage.resourceVersion}"},"items":[${items}]}`, warningHeaders(writeOptions));
      return;
    }
    default:
      throw methodNotAllowed();
  }
}

/** The attributes of a create by `principal` of the request's object: an apply that creates is authorized as one. */
function createAttributes(principal: Principal, req: IncomingMessage, info: RequestInfo, ns: string): AuthorizationAttributes {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  return { user: principal, verb: 'create', isResourceRequest: true, path, namespace: ns, apiGroup: info.group, apiVersion: info.version, resource: info.resource, subresource: info.subresource, name: info.name };
}
