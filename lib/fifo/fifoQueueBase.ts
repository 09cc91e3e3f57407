import { TransformError, type RxkubeError } from '../errors.js';
import { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import { DeltaType } from './delta.js';
import type { FifoQueueOptions } from './fifoQueue.js';
import { resolveQueueOptions, type ResolvedQueueOptions } from './fifoSupport.js';
import type { KnownObjects } from './knownObjects.js';
import type { RelistMark } from './relistMark.js';

/** Returned by {@link FifoQueueBase.transformed} when the transform threw (already reported). */
export const TRANSFORM_FAILED: unique symbol = Symbol('transform failed');

/**
 * What both queue modes share: the resolved options, client-go's `populated` /
 * `initialPopulationCount` bookkeeping behind `hasSynced`, and the once-per-object transform.
 * Internal; the modes are {@link DeltaFifoQueue} and {@link OrderedFifoQueue}.
 */
export abstract class FifoQueueBase<T> {
  protected populated = false;
  protected initialPopulationCount = 0;
  protected readonly keyOf: (obj: T | DeletedFinalStateUnknown<T>) => string | undefined;
  protected readonly knownObjects: KnownObjects<T> | undefined;
  /** See {@link FifoQueueOptions.knownObjectsDownstream}. */
  protected readonly downstream: boolean;
  /** The marks the replaces left (with `knownObjectsDownstream`), for {@link takeRelistMarks}. */
  private marks: RelistMark[] | undefined;
  protected readonly onError: (error: RxkubeError) => void;
  /** The delta type a relisted item is queued with. */
  protected readonly replaceType: DeltaType;
  private readonly transform: ((obj: T) => T) | undefined;

  /** `replacedByDefault`: whether relisted items are `Replaced` (not `Sync`) unless the options say. */
  protected constructor(
    options: FifoQueueOptions<T>,
    replacedByDefault: boolean,
    resolved: ResolvedQueueOptions<T> | undefined,
  ) {
    const o = resolved ?? resolveQueueOptions(options);
    this.keyOf = o.keyOf;
    this.knownObjects = o.knownObjects;
    this.downstream = o.knownObjectsDownstream;
    this.transform = o.transform;
    this.onError = o.onError;
    this.replaceType = (o.emitDeltaTypeReplaced ?? replacedByDefault) ? DeltaType.Replaced : DeltaType.Sync;
  }

  /** @internal The consumer had synced before: nothing popped from now on is part of the initial list. */
  startSynced(): void {
    this.populated = true;
  }

  /** @internal The relist marks left since the last call (with `knownObjectsDownstream`), oldest first. */
  takeRelistMarks(): ReadonlyArray<RelistMark> | undefined {
    const marks = this.marks;
    this.marks = undefined;
    return marks;
  }

  /** Records where a replace's deletions of keys only the consumer knows go (`at`: a pop index). */
  protected markRelist(at: number, listed: ReadonlySet<string>): void {
    (this.marks ??= []).push({ at, listed });
  }

  /** Whether a deletion of a key with nothing queued is dropped: nobody known to hold it. */
  protected unknown(key: string): boolean {
    if (this.downstream) return false; // the consumer drops it if it does not hold the key
    return this.knownObjects === undefined || this.knownObjects.getByKey(key) === undefined;
  }

  get hasSynced(): boolean {
    return this.populated && this.initialPopulationCount === 0;
  }

  /** Counts one pop against the first list; returns whether that pop is part of it (`isInInitialList`). */
  protected countPop(): boolean {
    const isInInitialList = !this.hasSynced;
    if (this.initialPopulationCount > 0) this.initialPopulationCount--;
    return isInInitialList;
  }

  /**
   * The object as it is queued: transformed, except tombstones and when `skipTransform` (Sync deltas
   * carry objects already transformed). A transform that throws, or returns no object, is reported
   * and the object dropped.
   */
  protected transformed(
    obj: T | DeletedFinalStateUnknown<T>,
    skipTransform: boolean,
  ): T | DeletedFinalStateUnknown<T> | typeof TRANSFORM_FAILED {
    if (this.transform === undefined || skipTransform || obj instanceof DeletedFinalStateUnknown) return obj;
    let out: T;
    try {
      out = this.transform(obj);
    } catch (e) {
      this.onError(new TransformError(obj, e));
      return TRANSFORM_FAILED;
    }
    // A transform that forgot its return statement: said so here, not as a key error downstream.
    if (typeof out !== 'object' || out === null) {
      this.onError(new TransformError(obj, `the transform returned ${String(out)}, not an object (return the object it was given, changed)`));
      return TRANSFORM_FAILED;
    }
    return out;
  }
}
