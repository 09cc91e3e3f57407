import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerContext } from './serverContext.js';
import { customResourceDefinitionType, definitionFromCrd } from '../registry/customResourceDefinitions.js';
import { writeJson, writeNotFoundPage } from './http.js';
import { toType, type JsonObject } from '../resources.js';
import { methodNotAllowed } from '../status.js';
import { allGroupVersionDocuments, discoveryV3, swaggerV2, type OpenApiSource } from '../discovery/openapi/documents.js';
import type { ClientNodeModels } from '../discovery/openapi/modelSchemas.js';
import { swaggerV2Protobuf } from '../discovery/openapi/swaggerProtobuf.js';
import { loadClientNode } from '../../../transport/clientNodeLoad.js';

/** The media types client-go asks `/openapi/v2` for (gnostic's protobuf): the old one with `@`, and the one kube answers with. */
const OPENAPI_V2_PROTOBUF = ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf'];

/** Whether `path` is one of the OpenAPI endpoints {@link serveOpenApi} answers. */
export const isOpenApiPath = (path: string): boolean => path === '/openapi/v2' || path === '/openapi/v3' || path.startsWith('/openapi/v3/');

/** Whether the Accept header takes JSON (no header, `*\/*`, `application/*`, `application/json`). */
function acceptsJson(accept: string | undefined): boolean {
  if (!accept) return true;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.trim().split(';').map((s) => s.trim());
    if (params.some((p) => /^q=0(\.0*)?$/.test(p))) return false;
    return type === '*/*' || type === 'application/*' || type === 'application/json';
  });
}

// kube-openapi answers a type it cannot produce with a plain 406 (kubectl then reports it).
function notAcceptable(res: ServerResponse): void {
  res.writeHead(406, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('406: Not Acceptable\n');
}

const YEAR_MS = 365 * 24 * 3600 * 1000;

/** The CRDs stored, by the id of the resource they define. */
function storedCrds(ctx: ServerContext): Map<string, JsonObject> {
  const crds = new Map<string, JsonObject>();
  for (const s of ctx.storage.snapshot(customResourceDefinitionType, ctx.storage.resourceVersion)) {
    const crd = JSON.parse(s.json) as JsonObject;
    const def = definitionFromCrd(crd);
    if (def) crds.set(toType(def, false).id, crd);
  }
  return crds;
}

/**
 * Serves `/openapi/v2` (Swagger 2.0, as JSON or as gnostic's protobuf, which client-go asks for)
 * and `/openapi/v3` (the discovery document) with one
 * document per group-version (`/openapi/v3/apis/apps/v1?hash=...`), built at each request from
 * what is served now, so custom resources appear and vanish with their CRDs. As kube-openapi: a
 * stale `hash` is a 301 to the current URL, a matching one is cacheable for a year, an Accept
 * header that allows neither JSON nor (on v2) gnostic protobuf is a 406.
 */
export async function serveOpenApi(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed();
  const protobufV2 = url.pathname === '/openapi/v2' && OPENAPI_V2_PROTOBUF.some((t) => (req.headers.accept ?? '').includes(t));
  if (!protobufV2 && !acceptsJson(req.headers.accept)) {
    notAcceptable(res);
    return;
  }
  const models = (await loadClientNode()) as unknown as ClientNodeModels;
  const source: OpenApiSource = { types: ctx.types.all(), crds: storedCrds(ctx), models, hasStatus: (t) => ctx.types.strategyOf(t).status !== undefined };
  if (url.pathname === '/openapi/v2') {
    if (!protobufV2) {
      writeJson(res, 200, JSON.stringify(swaggerV2(source)));
      return;
    }
    const body = swaggerV2Protobuf(swaggerV2(source));
    res.writeHead(200, { 'Content-Type': OPENAPI_V2_PROTOBUF[1], 'Content-Length': body.length }); // '@' is no valid media type character
    res.end(body);
    return;
  }
  const docs = allGroupVersionDocuments(source);
  if (url.pathname === '/openapi/v3') {
    writeJson(res, 200, JSON.stringify(discoveryV3(docs)), { 'Cache-Control': 'no-cache, private' });
    return;
  }
  const gv = url.pathname.slice('/openapi/v3/'.length);
  const doc = docs.get(gv);
  if (!doc) {
    writeNotFoundPage(res);
    return;
  }
  const hash = url.searchParams.get('hash');
  if (hash !== null && hash !== doc.hash) {
    res.writeHead(301, { Location: `/openapi/v3/${gv}?hash=${doc.hash}` });
    res.end();
    return;
  }
  const cache: { [h: string]: string } =
    hash === null
      ? { 'Cache-Control': 'no-cache, private', ETag: `"${doc.hash}"` }
      : { 'Cache-Control': 'public, immutable', Expires: new Date(ctx.scheduler.now() + YEAR_MS).toUTCString(), ETag: `"${doc.hash}"` };
  writeJson(res, 200, doc.body, cache);
}
