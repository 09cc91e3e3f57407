import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerContext } from './serverContext.js';
import { writeManager } from '../fields/fieldManager.js';
import { queryBool, writeJson } from './http.js';
import { parseBody, parseJsonBody, readBody } from '../wire/body.js';
import { listObjects, writeList } from './listHandler.js';
import { negotiateOutput } from '../wire/outputForm.js';
import { shardOf } from '../storage/shardSelector.js';
import { parseListQuery } from './listOptions.js';
import { patchTypeOf } from '../registry/patch.js';
import { readObjectBody } from '../wire/protobuf/protobufBody.js';
import { checkFieldValidation } from '../wire/fieldValidation.js';
import type { RequestInfo } from './requestInfo.js';
import type { ResourceType } from '../resources.js';
import type { WriteUser } from '../writeOptions.js';
import { compileSelectors } from '../storage/selectors.js';
import { badRequest, methodNotAllowed, notFound } from '../status.js';
import { serveWatch } from './watchHandler.js';
import { deleteOptions, servesSubresource } from './deleteOptions.js';
import { writeOptionsOf, warningHeaders } from '../schema/writeQuery.js';

/** Serves one request on a resource path (get, list, watch, create, update, patch, delete, deletecollection). */
export async function handleResource(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, info: RequestInfo, type: ResourceType, query: URLSearchParams, user?: WriteUser): Promise<void> {
  if (!type.namespaced && info.namespace) throw notFound(type, info.name);
  const ns = type.namespaced ? info.namespace : '';
  if (info.subresource && !servesSubresource(type, info.subresource, info.verb)) throw notFound(type, info.name);
  const sub = info.subresource || undefined;
  const { registry } = ctx;
  // A dry run must change nothing; this fake cannot run a write without keeping it, so it refuses
  // (a write that really happened would be worse than an error).
  if (query.has('dryRun') && ['create', 'update', 'patch', 'delete', 'deletecollection'].includes(info.verb)) {
    throw badRequest(`dryRun=${query.get('dryRun')} is not supported by this fake API server; nothing was changed`);
  }
  const contentType = req.headers['content-type'];
  // Writes carry the user for the registry's write guard (RBAC escalation).
  const writeOptions = { ...writeOptionsOf(query, info.verb), ...(user && { user }) };
  switch (info.verb) {
    case 'get':
      writeJson(res, 200, registry.get(type, ns, info.name).json);
      return;
    case 'list': {
      const q = parseListQuery(query, false, ctx.watchList);
      const form = negotiateOutput(req.headers.accept, 'list');
      const shard = shardOf(query, ctx.shardedListAndWatch);
      await writeList(res, type, await listObjects(ctx, type, ns || undefined, q, shard), form, shard);
      return;
    }
    case 'watch': {
      if (info.nameFieldSelector) {
        const fs = query.get('fieldSelector');
        query.set('fieldSelector', fs ? `${fs},${info.nameFieldSelector}` : info.nameFieldSelector);
      }
      const q = parseListQuery(query, true, ctx.watchList);
      await serveWatch(ctx, res, type, ns || undefined, q, negotiateOutput(req.headers.accept, 'watch'), shardOf(query, ctx.shardedListAndWatch));
      return;
    }
    case 'create': {
      if (info.name) throw methodNotAllowed();
      const body = await readObjectBody(req, contentType, type);
      await checkFieldValidation(type, body, query, res);
      writeJson(res, 201, registry.create(type, ns, body, { ...writeOptions, owner: { manager: writeManager(query, req.headers['user-agent'], undefined, 'CreateOptions') } }).json, warningHeaders(writeOptions));
      return;
    }
    case 'update': {
      const body = await readObjectBody(req, contentType, type);
      await checkFieldValidation(type, body, query, res);
      writeJson(res, 200, registry.update(type, ns, info.name, body, sub, { ...writeOptions, owner: { manager: writeManager(query, req.headers['user-agent']) } }).json, warningHeaders(writeOptions));
      return;
    }
    case 'patch': {
      const patchType = patchTypeOf(contentType, type.builtIn);
      const manager = writeManager(query, req.headers['user-agent'], patchType);
      const body = await parseBody(await readBody(req), contentType);
      const { stored, created } = registry.patch(type, ns, info.name, patchType, body, sub, { ...writeOptions, manager, force: queryBool(query, 'force') ?? false });
      writeJson(res, created ? 201 : 200, stored.json, warningHeaders(writeOptions));
      return;
    }
    case 'delete': {
      const options = deleteOptions(parseJsonBody(await readBody(req)), query);
      const { stored, deleted } = registry.delete(type, ns, info.name, options);
      if (!deleted || type.returnsDeletedObject) writeJson(res, 200, stored.json);
      else {
        const details = { name: stored.name, ...(type.group ? { group: type.group } : {}), kind: type.plural, uid: stored.uid };
        writeJson(res, 200, JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details }));
      }
      return;
    }
    case 'deletecollection': {
      const options = deleteOptions(parseJsonBody(await readBody(req)), query);
      const selectors = compileSelectors(query.get('labelSelector') ?? undefined, query.get('fieldSelector') ?? undefined, type);
      const deleted = registry.deleteCollection(type, ns || undefined, selectors, options);
      const body = `{"kind":"${type.listKind}","apiVersion":"${type.apiVersion}","metadata":{"resourceVersion":"${ctx.storage.resourceVersion}"},"items":[${deleted.map((d) => d.json).join(',')}]}`;
      writeJson(res, 200, body);
      return;
    }
    default:
      throw methodNotAllowed();
  }
}
