import { ApiStatusError, RxkubeError, type Status } from '../errors.js';

/**
 * A watch `ERROR` event carried something that is not a `Status` (client-go's
 * `UnexpectedObjectError`). The message says what came: its kind, apiVersion and top-level field
 * names, never field values (the object could be a Secret). The reflector treats it as a server
 * error: the ListAndWatch ends and it relists after a backoff step.
 *
 * @example
 * ```ts
 * r.errors$.subscribe((e) => {
 *   if (e.cause instanceof UnexpectedObjectError) console.warn(e.cause.kind, e.cause.fields);
 * });
 * ```
 */
export class UnexpectedObjectError extends RxkubeError {
  /** The object's `kind`, or `''` when it had none. */
  readonly kind: string;
  /** The object's `apiVersion`, or `''` when it had none. */
  readonly apiVersion: string;
  /** The object's top-level field names (at most 10). */
  readonly fields: ReadonlyArray<string>;

  constructor(object: unknown, context: string) {
    const o = (typeof object === 'object' && object !== null ? object : {}) as Record<string, unknown>;
    const kind = shortString(o['kind']);
    const apiVersion = shortString(o['apiVersion']);
    const fields = Object.keys(o).slice(0, 10).map((k) => k.slice(0, 40));
    const what = kind ? `a ${[apiVersion, kind].filter(Boolean).join(' ')}` : 'an object without a kind';
    super(
      'UnexpectedObjectError',
      `${context} carried ${what}, not a Status (fields: ${fields.join(', ') || 'none'}); the server or a proxy sent something unexpected`,
    );
    this.kind = kind;
    this.apiVersion = apiVersion;
    this.fields = fields;
  }
}

const shortString = (v: unknown): string => (typeof v === 'string' ? v.slice(0, 60) : '');

/**
 * The error a watch `ERROR` event stands for: an {@link ApiStatusError} when its object is a
 * `Status` (it has `kind: Status` or a numeric `code`), else an {@link UnexpectedObjectError}.
 *
 * @example
 * ```ts
 * watchErrorEventError({ kind: 'Status', code: 410, reason: 'Expired' }).message; // "watch ERROR event: 410 Expired: ..."
 * watchErrorEventError({ kind: 'Pod', metadata: {} }).message; // "watch ERROR event carried a Pod, not a Status (...)..."
 * ```
 */
export function watchErrorEventError(object: unknown): ApiStatusError | UnexpectedObjectError {
  const o = typeof object === 'object' && object !== null ? (object as Record<string, unknown>) : undefined;
  if (o && (o['kind'] === 'Status' || typeof o['code'] === 'number'))
    return new ApiStatusError(o as Status, { context: 'watch ERROR event' });
  return new UnexpectedObjectError(object, 'a watch ERROR event');
}
