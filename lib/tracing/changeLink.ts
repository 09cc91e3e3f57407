import type { Notification } from '../informer/notification.js';
import { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { annotatedTraceContext, type TraceContext } from './traceContext.js';
import type { WriteCauses } from './writeCauses.js';

/**
 * One change that queued a reconcile (a span link of the reconcile's span): the watch event of a
 * `for`, `owns` or `watches` informer, and, where one is known, the write that caused it.
 *
 * @example
 * ```ts
 * const link: ChangeLink = { source: 'for', type: 'MODIFIED', kind: 'ConfigMap', namespace: 'ns', name: 'a', resourceVersion: '42', at: 7 };
 * ```
 */
export interface ChangeLink {
  /** Which source of the controller: `for`, `owns[0]`, `watches[1]`. */
  readonly source: string;
  /** The watch event type the change came as. */
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly resourceVersion?: string;
  /** When the controller was told (ms, its clock). */
  readonly at: number;
  /**
   * The span of the write that made this change: one this process sent (`write`), or the one
   * KEP-5915's annotation names (`annotation`).
   */
  readonly cause?: TraceContext;
  readonly causeFrom?: 'write' | 'annotation';
}

const EVENT_TYPES = { add: 'ADDED', update: 'MODIFIED', delete: 'DELETED' } as const;

/**
 * The link of a change told to a controller's source `source` at `at`: to the write span that
 * stored this version, if `causes` has it; else, with `annotations`, to the one KEP-5915's
 * annotation on the object names, if any.
 *
 * @example
 * ```ts
 * const link = changeLinkOf(notification, 'owns[0]', scheduler.now(), true, writeCausesOf(tracing));
 * ```
 */
export function changeLinkOf(change: Notification<KubeObjectLike>, source: string, at: number, annotations: boolean, causes: WriteCauses): ChangeLink {
  const obj = objectOf(change);
  const meta = obj?.metadata;
  const written = causes.causeOf(meta?.namespace, meta?.name, meta?.resourceVersion);
  const annotated = written === undefined && annotations && change.type !== 'delete' ? annotatedTraceContext(obj) : undefined;
  return {
    source,
    type: EVENT_TYPES[change.type],
    kind: obj?.kind,
    namespace: meta?.namespace,
    name: meta?.name,
    resourceVersion: meta?.resourceVersion,
    at,
    ...(written !== undefined ? { cause: written, causeFrom: 'write' as const } : annotated !== undefined ? { cause: annotated, causeFrom: 'annotation' as const } : {}),
  };
}

function objectOf(change: Notification<KubeObjectLike>): KubeObjectLike | undefined {
  if (change.type === 'update') return change.newObject;
  // A DeletedFinalStateUnknown carries the last object known.
  return change.object instanceof DeletedFinalStateUnknown ? change.object.obj : change.object;
}
