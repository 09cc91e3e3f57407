import type { JsonObject } from '../resources.js';

// core/v1 Events and events.k8s.io/v1 Events are one storage in kube-apiserver (the events.k8s.io
// registry is the core one, converting field by field; TESTCLUSTER.md §7). The fake keeps both
// tables and writes each Event to both at one resourceVersion, converted here.

/** The id of the core/v1 Events resource. */
export const CORE_EVENTS = 'events';
/** The id of the events.k8s.io/v1 Events resource. */
export const EVENTS_V1 = 'events.events.k8s.io';

/** Whether a resource id is one of the two Event resources. */
export const isEventResource = (id: string): boolean => id === CORE_EVENTS || id === EVENTS_V1;

// events.k8s.io/v1 name -> core/v1 name (Convert_v1_Event_To_core_Event).
const RENAMED: ReadonlyArray<readonly [string, string]> = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];
const SAME = ['eventTime', 'series', 'action', 'reason', 'related', 'reportingInstance', 'type'];

/** A `metav1.Time` as kube serialises it: RFC 3339 in whole seconds, UTC. */
function wholeSeconds(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = Date.parse(v);
  return Number.isNaN(t) ? v : new Date(Math.floor(t / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '' && v !== 0;

/**
 * An events.k8s.io/v1 Event as core/v1 serves it (the fields kube always writes included:
 * `involvedObject`, `source`, the timestamps, `reportingComponent`, `reportingInstance`).
 *
 * @example
 * ```ts
 * toCoreEvent({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: {}, note: 'hi', reportingController: 'x' }).message; // 'hi'
 * ```
 */
export function toCoreEvent(e: JsonObject): JsonObject {
  const out: JsonObject = { kind: 'Event', apiVersion: 'v1', metadata: e.metadata, involvedObject: e.regarding ?? {} };
  for (const [from, to] of RENAMED) if (from !== 'regarding' && present(e[from])) out[to] = e[from];
  for (const k of SAME) if (present(e[k])) out[k] = e[k];
  out.source ??= {};
  for (const k of ['firstTimestamp', 'lastTimestamp']) out[k] = wholeSeconds(out[k]);
  out.firstTimestamp ??= null;
  out.lastTimestamp ??= null;
  out.eventTime ??= null;
  out.reportingComponent ??= '';
  out.reportingInstance ??= '';
  return out;
}

/**
 * A core/v1 Event as events.k8s.io/v1 serves it.
 *
 * @example
 * ```ts
 * toEventsV1Event({ apiVersion: 'v1', kind: 'Event', metadata: {}, message: 'hi', involvedObject: { kind: 'Pod' } }).note; // 'hi'
 * ```
 */
export function toEventsV1Event(e: JsonObject): JsonObject {
  const out: JsonObject = { kind: 'Event', apiVersion: 'events.k8s.io/v1', metadata: e.metadata, eventTime: e.eventTime ?? null };
  for (const k of SAME) if (k !== 'eventTime' && present(e[k])) out[k] = e[k];
  for (const [to, from] of RENAMED) if (present(e[from])) out[to] = e[from];
  out.regarding ??= {};
  out.deprecatedSource ??= {};
  out.deprecatedFirstTimestamp ??= null;
  out.deprecatedLastTimestamp ??= null;
  return out;
}

/** An Event written through `id`, in the form its storage gives back (converted both ways). */
export function normalizeEvent(id: string, e: JsonObject): JsonObject {
  return id === EVENTS_V1 ? toEventsV1Event(toCoreEvent(e)) : toCoreEvent(toEventsV1Event(e));
}

const at = (obj: JsonObject, ...keys: string[]): string | undefined => {
  let v: unknown = obj;
  for (const k of keys) v = v && typeof v === 'object' ? (v as JsonObject)[k] : undefined;
  return v === undefined || v === null ? undefined : String(v);
};

const REF_FIELDS = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];

/**
 * core/v1 Events' field selectors (kube's event `ToSelectableFields`): what `kubectl describe` and
 * `kubectl events --for` filter on.
 *
 * @example
 * ```ts
 * coreEventFieldSelectors['involvedObject.name'](event); // 'web'
 * ```
 */
export const coreEventFieldSelectors: { readonly [field: string]: (obj: JsonObject) => string | undefined } = Object.freeze({
  ...Object.fromEntries(REF_FIELDS.map((f) => [`involvedObject.${f}`, (o: JsonObject) => at(o, 'involvedObject', f) ?? ''])),
  reason: (o: JsonObject) => at(o, 'reason') ?? '',
  reportingComponent: (o: JsonObject) => at(o, 'reportingComponent') ?? '',
  source: (o: JsonObject) => at(o, 'source', 'component') || (at(o, 'reportingComponent') ?? ''),
  type: (o: JsonObject) => at(o, 'type') ?? '',
});

/**
 * events.k8s.io/v1 Events' field selectors: the core ones under their events.k8s.io names.
 *
 * @example
 * ```ts
 * eventsV1FieldSelectors['regarding.name'](event); // 'web'
 * ```
 */
export const eventsV1FieldSelectors: { readonly [field: string]: (obj: JsonObject) => string | undefined } = Object.freeze({
  ...Object.fromEntries(REF_FIELDS.map((f) => [`regarding.${f}`, (o: JsonObject) => at(o, 'regarding', f) ?? ''])),
  reason: (o: JsonObject) => at(o, 'reason') ?? '',
  reportingController: (o: JsonObject) => at(o, 'reportingController') ?? '',
  type: (o: JsonObject) => at(o, 'type') ?? '',
});
