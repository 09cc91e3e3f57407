import type { ReflectorEvent } from '../reflector/reflectorEvent.js';

/**
 * What a standalone delta FIFO ({@link deltaFifo}, a {@link FifoQueue}) takes: the reflector's
 * events, plus client-go's `Resync` (queue a `Sync` for every known key with nothing queued, read
 * from `knownObjects`). The informer's FIFO never sees a resync: a handler's periodic resync is its
 * own replay of the store.
 *
 * @example
 * ```ts
 * const events$: Observable<FifoEvent<V1Pod>> = merge(reflectorEvents$, interval(30_000).pipe(map(() => RESYNC)));
 * ```
 */
export type FifoEvent<T> = ReflectorEvent<T> | { readonly type: 'resync' };
