import { badRequest } from '../status.js';

/** A decoded continue token: the list's revision and the last key returned. */
export interface ContinueToken {
  readonly rv: number;
  readonly after: string;
}

/** Encodes as kube does: base64url of `{"v":"meta.k8s.io/v1","rv":R,"start":"<key>\u0000"}`. */
export function encodeContinue(rv: number, lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: `${lastKey}\u0000` })).toString('base64url');
}

/** Decodes a token; a malformed one is 400 `invalid continue token`. */
export function decodeContinue(token: string): ContinueToken {
  let parsed: { v?: unknown; rv?: unknown; start?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    throw badRequest(`invalid continue token: illegal base64 data or JSON in "${token}"`);
  }
  if (parsed.v !== 'meta.k8s.io/v1' || typeof parsed.rv !== 'number' || parsed.rv <= 0 || typeof parsed.start !== 'string') {
    throw badRequest('invalid continue token: continue key is not valid');
  }
  const start = parsed.start.endsWith('\u0000') ? parsed.start.slice(0, -1) : parsed.start;
  return { rv: parsed.rv, after: start };
}
