import type { EventInput } from './eventInput.js';

const isObject = (v: unknown): v is object => v !== null && typeof v === 'object';
const kindOf = (v: unknown): string => (v === null ? 'null' : typeof v);
const REF_FIELDS = ['apiVersion', 'kind', 'namespace', 'name', 'uid', 'resourceVersion', 'fieldPath'] as const;

/** What is wrong with an object reference, or undefined: an object whose fields are strings. */
function invalidRef(field: string, ref: unknown): string | undefined {
  if (!isObject(ref)) return `${field} is ${kindOf(ref)}, not an object reference`;
  for (const k of REF_FIELDS) {
    const v = (ref as { [key: string]: unknown })[k];
    if (v !== undefined && typeof v !== 'string') return `${field}.${k} is ${kindOf(v)}, not a string`;
  }
  return undefined;
}

/**
 * Internal: what is wrong with an input to `EventRecorder.publish` (named for the error message),
 * or undefined if it can be recorded. Types do not hold at run time (JavaScript callers, casts,
 * parsed JSON), and `publish` must not throw.
 */
export function invalidEventInput(input: unknown): string | undefined {
  if (!isObject(input)) return `the input is ${kindOf(input)}, not an object`;
  const i = input as { [k in keyof EventInput]?: unknown };
  if (i.type !== 'Normal' && i.type !== 'Warning') return `type is ${typeof i.type === 'string' ? `'${i.type}'` : kindOf(i.type)}, not 'Normal' or 'Warning'`;
  if (typeof i.reason !== 'string') return `reason is ${kindOf(i.reason)}, not a string`;
  if (typeof i.action !== 'string') return `action is ${kindOf(i.action)}, not a string`;
  if (i.note !== undefined && typeof i.note !== 'string') return `note is ${kindOf(i.note)}, not a string`;
  return invalidRef('regarding', i.regarding) ?? (i.related === undefined || i.related === null ? undefined : invalidRef('related', i.related));
}
