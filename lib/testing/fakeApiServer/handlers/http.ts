import type { ServerResponse } from 'node:http';
import type { Status } from '../../../errors.js';
import { StatusError, failure } from '../status.js';

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

/** Kube's boolean query values: missing, `0`, `false` (any case) are false; anything else is true. */
export function queryBool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}
