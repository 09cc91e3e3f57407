import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Status } from '../../errors.js';
import { badRequest, StatusError, failure } from './status.js';
import { yamlDocuments } from './yaml.js';

/** Writes a JSON body (already serialised) with `code`. */
export function writeJson(res: ServerResponse, code: number, body: string, headers: { [h: string]: string | string[] } = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** Writes a Status with its code; `Retry-After` from `details.retryAfterSeconds` when > 0. */
export function writeStatus(res: ServerResponse, status: Status): void {
  const ra = status.details?.retryAfterSeconds;
  writeJson(res, status.code ?? 500, JSON.stringify(status), ra && ra > 0 ? { 'Retry-After': String(ra) } : {});
}

/** Writes any thrown error: a StatusError as its Status, anything else as a 500. */
export function writeError(res: ServerResponse, e: unknown): void {
  if (e instanceof StatusError) writeStatus(res, e.status);
  else writeStatus(res, failure(500, 'InternalError', `Internal error occurred: ${e instanceof Error ? e.message : String(e)}`));
}

/** The plain-text 404 of an unknown path (kube's notfoundhandler). */
export function writeNotFoundPage(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('404 page not found\n');
}

const MAX_BODY = 16 * 1024 * 1024;

/** Reads the request body as a string (bounded). */
export async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBodyBytes(req)).toString('utf8');
}

/** Reads the request body's bytes (bounded), for binary bodies (protobuf). */
export function readBodyBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new StatusError(failure(413, 'RequestEntityTooLarge', 'Request entity too large')));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Parses a JSON body; an empty body is `undefined`. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw badRequest(`couldn't get version/kind; json parse error: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Parses a write's body by its content type: YAML (`application/yaml`, `application/apply-patch+yaml`,
 * the format server-side apply declares) or JSON. An empty body is `undefined`.
 */
export async function parseBody(text: string, contentType: string | undefined): Promise<unknown> {
  if (!contentType?.includes('yaml') || text.trim() === '' || /^\s*[{[]/.test(text)) return parseJsonBody(text);
  let docs: unknown[];
  try {
    docs = await yamlDocuments(text);
  } catch (e) {
    throw badRequest(`couldn't get version/kind; yaml parse error: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (docs.length !== 1) throw badRequest(`the body must hold one YAML document, not ${docs.length}`);
  return docs[0];
}

/** Kube's boolean query values: missing, `0`, `false` (any case) are false; anything else is true. */
export function queryBool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}
