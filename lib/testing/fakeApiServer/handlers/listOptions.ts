import { queryBool } from './http.js';
import { badRequest, invalidListOptions, type FieldError } from '../status.js';

/** The list/watch query parameters, parsed and validated as apimachinery's ValidateListOptions. */
export interface ListQuery {
  /** undefined when unset or empty. */
  readonly resourceVersion: string | undefined;
  readonly resourceVersionMatch: string | undefined;
  readonly limit: number;
  readonly continue: string | undefined;
  readonly labelSelector: string | undefined;
  readonly fieldSelector: string | undefined;
  readonly sendInitialEvents: boolean | undefined;
  readonly allowWatchBookmarks: boolean;
  readonly timeoutSeconds: number | undefined;
}

const forbidden = (field: string, detail: string): FieldError => ({ field, type: 'FieldValueForbidden', body: `Forbidden: ${detail}` });
const notSupported = (field: string, value: string, supported: string[]): FieldError => ({
  field,
  type: 'FieldValueNotSupported',
  body: `Unsupported value: "${value}": supported values: ${supported.map((s) => `"${s}"`).join(', ')}`,
});

/** Parses the query; 422 for invalid option combinations (§2, §3), 400 for a malformed number. */
export function parseListQuery(q: URLSearchParams, watch: boolean, watchListEnabled: boolean): ListQuery {
  const rv = q.get('resourceVersion') || undefined;
  const match = q.get('resourceVersionMatch') || undefined;
  const cont = q.get('continue') || undefined;
  const sendInitialEvents = queryBool(q, 'sendInitialEvents');
  const limitText = q.get('limit');
  const limit = limitText ? Number(limitText) : 0;
  if (!Number.isInteger(limit)) throw badRequest(`strconv.ParseInt: parsing "${limitText}": invalid syntax`);
  const timeoutText = q.get('timeoutSeconds');
  const timeoutSeconds = timeoutText ? Number(timeoutText) : undefined;
  if (timeoutSeconds !== undefined && !Number.isInteger(timeoutSeconds)) throw badRequest(`strconv.ParseInt: parsing "${timeoutText}": invalid syntax`);
  if (rv !== undefined && !/^\d+$/.test(rv)) throw badRequest(`Invalid value: "${rv}": resourceVersion must be a decimal integer`);
  const errors: FieldError[] = [];
  if (watch) {
    if (sendInitialEvents !== undefined) {
      if (match !== 'NotOlderThan') errors.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
      if (!watchListEnabled) errors.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
    }
    if (match !== undefined) {
      if (sendInitialEvents === undefined) errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      if (match !== 'NotOlderThan') errors.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']));
    }
  } else {
    if (match !== undefined) {
      if (rv === undefined) errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
      if (cont !== undefined) errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
      if (match !== 'Exact' && match !== 'NotOlderThan') errors.push(notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
      if (match === 'Exact' && rv === '0') errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
    if (sendInitialEvents !== undefined) errors.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  if (errors.length > 0) throw invalidListOptions(errors);
  return {
    resourceVersion: rv,
    resourceVersionMatch: match,
    limit: limit > 0 ? limit : 0,
    continue: cont,
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
    sendInitialEvents,
    allowWatchBookmarks: queryBool(q, 'allowWatchBookmarks') ?? false,
    timeoutSeconds,
  };
}
