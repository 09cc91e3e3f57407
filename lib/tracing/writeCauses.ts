import type { TraceContext } from './traceContext.js';

// The write spans of this process by the object version they stored (namespace/name@resourceVersion):
// when the watch event of that version reaches a controller, its reconcile links to the write that
// caused it. Process-wide (a write and the controller it wakes need not share anything else);
// bounded, oldest forgotten first, as events usually arrive within milliseconds of their write.

const MAX_CAUSES = 4096;
const causes = new Map<string, TraceContext>();

const keyOf = (namespace: string | undefined, name: string, resourceVersion: string) => `${namespace ?? ''}/${name}@${resourceVersion}`;

/**
 * Remembers that the write of span `context` stored `namespace/name` at `resourceVersion`.
 *
 * @example
 * ```ts
 * rememberWriteCause('ns', 'a', '42', writeSpan.context);
 * ```
 */
export function rememberWriteCause(namespace: string | undefined, name: string | undefined, resourceVersion: string | undefined, context: TraceContext): void {
  if (name === undefined || resourceVersion === undefined || resourceVersion === '') return;
  if (causes.size >= MAX_CAUSES) causes.delete(causes.keys().next().value as string);
  causes.set(keyOf(namespace, name, resourceVersion), context);
}

/**
 * The span of the write of this process that stored `namespace/name` at `resourceVersion`, if remembered.
 *
 * @example
 * ```ts
 * const cause = writeCauseOf('ns', 'a', '42');
 * ```
 */
export function writeCauseOf(namespace: string | undefined, name: string | undefined, resourceVersion: string | undefined): TraceContext | undefined {
  if (causes.size === 0 || name === undefined || resourceVersion === undefined) return undefined;
  return causes.get(keyOf(namespace, name, resourceVersion));
}
