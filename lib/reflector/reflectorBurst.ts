import type { ReflectorEvent } from './reflectorEvent.js';

/**
 * Everything that arrived together, as one array: the complete lines of one watch chunk, or a list
 * (one `replace`). The pipeline works in bursts so that per-event costs (an Rx emission, a store
 * snapshot, a notification pass) are paid once per burst instead of once per event; client-go's
 * `PopBatch` does the same. A burst is never empty.
 *
 * @example
 * ```ts
 * const burst: ReflectorBurst<V1Pod> = [{ type: 'add', object: pod }, { type: 'bookmark', resourceVersion: '42' }];
 * ```
 */
export type ReflectorBurst<T> = ReadonlyArray<ReflectorEvent<T>>;
