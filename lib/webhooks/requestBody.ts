import type { IncomingMessage } from 'node:http';

/**
 * controller-runtime's limit on an admission request (7 MiB: two objects of 3 MiB and the rest):
 * the server's default `maxRequestBytes`.
 *
 * @example
 * ```ts
 * webhookServer({ webhooks, certificates, maxRequestBytes: 2 * MAX_REQUEST_BYTES });
 * ```
 */
export const MAX_REQUEST_BYTES = 7 * 1024 * 1024;

/** A request body read whole, or over the limit (then the rest is not read). */
export type RequestBody = { readonly type: 'body'; readonly bytes: Buffer } | { readonly type: 'tooLarge' };

/**
 * Reads a request's body up to `limit` bytes. A declared `Content-Length` over the limit is
 * refused before reading; a body that grows past it stops being read.
 *
 * @example
 * ```ts
 * const body = await readRequestBody(req, MAX_REQUEST_BYTES);
 * ```
 */
export function readRequestBody(req: IncomingMessage, limit: number): Promise<RequestBody> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ type: 'tooLarge' });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.off('end', onEnd);
        req.pause();
        resolve({ type: 'tooLarge' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve({ type: 'body', bytes: Buffer.concat(chunks) });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
  });
}
