import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { status, type Pod } from './scriptedListWatch.js';

// Watch events for the reflector's marble specs.
export type E = WatchEvent<Pod>;
export const added = (p: Pod): E => ({ type: 'ADDED', object: p });
export const modified = (p: Pod): E => ({ type: 'MODIFIED', object: p });
export const deleted = (p: Pod): E => ({ type: 'DELETED', object: p });
export const errorEvent = (code: number, reason: string, retryAfterSeconds?: number): E => ({
  type: 'ERROR',
  object: status(code, reason, retryAfterSeconds ? { details: { retryAfterSeconds } } : {}),
});
