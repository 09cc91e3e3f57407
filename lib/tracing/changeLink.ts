import type { Notification } from '../informer/notification.js';
import { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { annotatedTraceContext } from './traceContext.js';
import type { ChangeLink } from './tracing.js';
import type { WriteCauses } from './writeCauses.js';

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
