import type { IncomingMessage } from 'node:http';
import { badRequest, StatusError, failure } from '../status.js';
import { yamlDocuments } from './yaml.js';

// Request bodies as the decoder reads them: bounded bytes, JSON, or YAML by content type.

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
