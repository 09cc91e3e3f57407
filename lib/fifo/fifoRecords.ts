/**
 * The FIFO's per-event records (a delta, a pop, a list of one delta), made by constructors rather
 * than as object or array literals, so that the records of a large list cannot make later watch
 * events' records outlive their objects (why: docs/PERFORMANCE.md, "Allocation-site pretenuring").
 *
 * @internal Not part of rxkube's public API.
 * @module
 */
import type { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import type { Delta, Deltas, DeltaType } from './delta.js';
import type { FifoPop } from './fifoOutput.js';

class DeltaRecord<T> implements Delta<T> {
  constructor(
    readonly type: DeltaType,
    readonly object: T | DeletedFinalStateUnknown<T>,
  ) {}
}

class PopRecord<T> implements FifoPop<T> {
  readonly type = 'pop' as const;
  constructor(
    readonly key: string,
    readonly deltas: Deltas<T>,
    readonly isInInitialList: boolean,
  ) {}
}

/** A delta of `type` for `object`. */
export function newDelta<T>(type: DeltaType, object: T | DeletedFinalStateUnknown<T>): Delta<T> {
  return new DeltaRecord(type, object);
}

/** A list holding `delta` alone (mutable: the queue may append to it until the key is popped). */
export function oneDelta<T>(delta: Delta<T>): Delta<T>[] {
  // Not `Array.of`, five times slower; the Array constructor tracks no site for arrays of objects.
  const deltas = new Array<Delta<T>>(1);
  deltas[0] = delta;
  return deltas;
}

/** The pop of `key`. */
export function newPop<T>(key: string, deltas: Deltas<T>, isInInitialList: boolean): FifoPop<T> {
  return new PopRecord(key, deltas, isInInitialList);
}
