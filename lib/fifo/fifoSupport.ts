import { KeyError, type RxkubeError } from '../errors.js';
import { deletionHandlingMetaNamespaceKeyFunc, type KeyFunc } from '../meta/keys.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import type { FifoEvent } from './fifoEvent.js';
import type { FifoQueue, FifoQueueOptions } from './fifoQueue.js';
import { errorLogger } from '../logging/errorLogger.js';

/**
 * Internal: the key of an object or tombstone, reporting failures instead of throwing.
 *
 * @internal
 * @example
 * ```ts
 * const keyOf = makeKeyOf<V1Pod>(undefined, onError);
 * keyOf(pod); // 'ns/a', or undefined after onError(KeyError)
 * ```
 */
export function makeKeyOf<T>(
  keyFunc: KeyFunc<T> | undefined,
  onError: (error: RxkubeError) => void,
): (obj: T | DeletedFinalStateUnknown<T>) => string | undefined {
  const fn: KeyFunc<T> =
    keyFunc ?? ((obj: T) => deletionHandlingMetaNamespaceKeyFunc(obj as unknown as KubeObjectLike));
  return (obj) => {
    if (obj instanceof DeletedFinalStateUnknown) return obj.key;
    try {
      return fn(obj);
    } catch (e) {
      onError(e instanceof KeyError ? e : new KeyError(obj, e instanceof Error ? e.message : String(e)));
      return undefined;
    }
  };
}

let defaultLog: ((error: RxkubeError) => void) | undefined;

/**
 * Internal: where a standalone queue's errors go without `onError`: rxkube's default logger (the
 * informers' own: explained, rate-limited, off with `RXKUBE_LOG=off`), not a FIFO-only
 * `console.warn`. The informer's FIFO reports nothing this way: its errors travel in its batches.
 *
 * @internal
 * @example
 * ```ts
 * defaultOnError(new KeyError({}, 'object has no metadata'));
 * ```
 */
export function defaultOnError(error: RxkubeError): void {
  (defaultLog ??= errorLogger(undefined, { resource: 'deltaFifo' }))(error);
}

/** Internal: the options both queue kinds share, resolved once (see {@link resolveQueueOptions}). */
export interface ResolvedQueueOptions<T> {
  readonly onError: (error: RxkubeError) => void;
  readonly keyOf: (obj: T | DeletedFinalStateUnknown<T>) => string | undefined;
  readonly knownObjects: FifoQueueOptions<T>['knownObjects'];
  readonly knownObjectsDownstream: boolean;
  readonly transform: ((obj: T) => T) | undefined;
  readonly emitDeltaTypeReplaced: boolean | undefined;
}

/**
 * Internal: resolves the options both queue kinds share.
 *
 * @internal
 * @example
 * ```ts
 * const { keyOf, onError } = resolveQueueOptions<V1Pod>({});
 * ```
 */
export function resolveQueueOptions<T>(options: FifoQueueOptions<T>): ResolvedQueueOptions<T> {
  const onError = options.onError ?? defaultOnError;
  return {
    onError,
    keyOf: makeKeyOf(options.keyFunc, onError),
    knownObjects: options.knownObjects,
    knownObjectsDownstream: options.knownObjectsDownstream === true,
    transform: options.transform,
    emitDeltaTypeReplaced: options.emitDeltaTypeReplaced,
  };
}

/**
 * Internal: dispatches a {@link ReflectorEvent} to a queue's methods.
 *
 * @internal
 * @example
 * ```ts
 * applyEvent(queue, { type: 'add', object: pod }); // queue.add(pod)
 * ```
 */
export function applyEvent<T>(queue: FifoQueue<T>, event: FifoEvent<T>): void {
  switch (event.type) {
    case 'add':
      return queue.add(event.object);
    case 'update':
      return queue.update(event.object);
    case 'delete':
      return queue.delete(event.object);
    case 'replace':
      return queue.replace(event.items, event.resourceVersion);
    case 'resync':
      return queue.resync();
    case 'bookmark':
      return;
  }
}
