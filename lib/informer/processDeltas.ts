import { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import { DeltaType } from '../fifo/delta.js';
import type { FifoBatch } from '../fifo/fifoBatch.js';
import type { FifoPop } from '../fifo/fifoOutput.js';
import type { RelistMark } from '../fifo/relistMark.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { IndexFunctionError, InvalidIndexValuesError } from '../store/indexErrors.js';
import type { Indexers } from '../store/indexers.js';
import type { StoreMutator } from '../store/storeMutator.js';
import type { StoreWriter } from '../store/storeWriter.js';
import {
  addNotification,
  deleteNotification,
  updateNotification,
  type Notification,
} from './notification.js';

/**
 * One notification of a batch, as every handler's listener takes it: what to tell, the key it is
 * about (for a `dropAndResync` handler's view), and whether it is a resync (an update whose
 * resource version did not change: only handlers due a resync take it, I3). A class, not a literal
 * (docs/PERFORMANCE.md, "Allocation-site pretenuring").
 *
 * @internal
 * @example
 * ```ts
 * const item = new BatchNotification(addNotification(pod, true), 'ns/pod', false);
 * ```
 */
export class BatchNotification<T> {
  /** What it is to a handler's listener step (see `ListenerInput`). */
  readonly type = 'notify' as const;
  constructor(
    readonly notification: Notification<T>,
    readonly key: string,
    readonly resync: boolean,
  ) {}
}

/**
 * What one batch did: the notifications to hand out, in order, and the index function errors met
 * on the way. The informer's shared notification stream carries these; every handler subscribes
 * to it.
 *
 * @internal
 * @example
 * ```ts
 * const batch: ProcessedBatch<V1Pod> = { notifications: [], errors: [], synced: false };
 * ```
 */
export interface ProcessedBatch<T> {
  readonly notifications: ReadonlyArray<BatchNotification<T>>;
  readonly errors: ReadonlyArray<IndexFunctionError>;
  /** The informer synced with this batch: each handler's sync tracker hears it after the batch. */
  readonly synced: boolean;
}

/**
 * client-go's `processDeltas` over a whole batch: every delta of every pop is applied to the store
 * in ONE transient write (one new snapshot, one `store$` emission), with the batch's resource
 * version; Sync / Replaced / Added / Updated become an update when the key was stored, an add
 * otherwise. A deletion of a key the store does not hold is dropped (nobody was told of the object,
 * so nobody must hear it is gone). A relist's deletions of keys only the store knows are found here,
 * where the old state is, at the place the FIFO marked ({@link RelistMark}). A write whose index
 * function throws changes nothing and is reported; the rest of the batch goes on. Nobody is told
 * anything here: the store is written before anyone hears.
 *
 * @internal
 * @example
 * ```ts
 * const done = processDeltas(writer, batch, 'pods');
 * for (const { notification, key } of done.notifications) console.log(key, notification.type);
 * ```
 */
export function processDeltas<T extends KubeObjectLike>(
  writer: StoreWriter<T>,
  batch: FifoBatch<T>,
  resource: string,
  /** The pops' keys are the store's keys (no transform that could rename): no second key per object. */
  popKeysAreStoreKeys = false,
): ProcessedBatch<T> {
  const notifications: Array<BatchNotification<T>> = [];
  const errors: IndexFunctionError[] = [];
  const relists = batch.relists;
  // What the store held before this batch, read only for a list's deletions (rare).
  const storedKeys = relists === undefined ? undefined : writer.peek().listKeys();
  let mark = 0;
  writer.batchInPlace((m) => {
    const pops = batch.pops;
    for (let i = 0; i < pops.length; i++) {
      const pop = pops[i]!;
      while (relists !== undefined && mark < relists.length && relists[mark]!.at === i) {
        deleteUnlisted(m, relists[mark++]!, pops, storedKeys!, notifications);
      }
      for (const d of pop.deltas) {
        try {
          if (d.type === DeltaType.Deleted) {
            if (m.delete(d.object) === undefined) continue; // not held: nobody heard of it
            notifications.push(new BatchNotification(deleteNotification(d.object), pop.key, false));
          } else {
            const obj = d.object as T;
            const old = popKeysAreStoreKeys ? m.upsertByKey(pop.key, obj) : m.upsert(obj);
            if (old === undefined) {
              notifications.push(new BatchNotification(addNotification(obj, pop.isInInitialList), pop.key, false));
            } else {
              const resync = isResync(d.type, old, obj);
              notifications.push(new BatchNotification(updateNotification(old, obj), pop.key, resync));
            }
          }
        } catch (e) {
          errors.push(
            indexFunctionError(
              resource,
              writer.peek().getIndexers(),
              pop.key,
              [d.object, m.getByKey(pop.key)],
              e,
            ),
          );
        }
      }
    }
    while (relists !== undefined && mark < relists.length) {
      deleteUnlisted(m, relists[mark++]!, pops, storedKeys!, notifications);
    }
    if (batch.resourceVersion !== undefined) m.setResourceVersion(batch.resourceVersion);
  });
  return { notifications, errors, synced: batch.synced };
}

/**
 * A relist's deletions of what only the store knew: every key stored before the batch that the list
 * did not have and that no pop before the mark touched (those the FIFO handled from what was
 * queued) is deleted, told as a `DeletedFinalStateUnknown` carrying the stored object (client-go's
 * DeltaFIFO `Replace` does the same through `knownObjects`).
 */
function deleteUnlisted<T>(
  m: StoreMutator<T>,
  mark: RelistMark,
  pops: ReadonlyArray<FifoPop<T>>,
  storedKeys: ReadonlyArray<string>,
  notifications: Array<BatchNotification<T>>,
): void {
  const queued = new Set<string>();
  for (let i = 0; i < mark.at; i++) queued.add(pops[i]!.key);
  for (const key of storedKeys) {
    if (mark.listed.has(key) || queued.has(key)) continue;
    const last = m.deleteByKey(key);
    if (last === undefined) continue;
    notifications.push(new BatchNotification(deleteNotification<T>(new DeletedFinalStateUnknown(key, last)), key, false));
  }
}

/**
 * Whether an update is a resync, for the handlers due one only (I3): a `Sync`, or an unchanged
 * resource version. Without any (hand-made objects) only a relist's item counts as unchanged, as in
 * client-go; a watch update of such an object is a change, or no handler without a resync would
 * ever hear of it.
 */
function isResync<T extends KubeObjectLike>(type: DeltaType, old: T, obj: T): boolean {
  if (type === DeltaType.Sync) return true;
  const rv = obj.metadata?.resourceVersion;
  if (old.metadata?.resourceVersion !== rv) return false;
  return type === DeltaType.Replaced || (rv !== undefined && rv !== '');
}

/** The error to report: which index threw is found again by asking each one (error path only). */
function indexFunctionError<T>(
  resource: string,
  indexers: Indexers<T>,
  key: string,
  objects: ReadonlyArray<unknown>,
  cause: unknown,
): IndexFunctionError {
  if (cause instanceof InvalidIndexValuesError) return new IndexFunctionError(resource, cause.indexName, key, cause);
  for (const obj of objects) {
    if (obj === undefined || obj === null || obj instanceof DeletedFinalStateUnknown) continue;
    for (const [name, fn] of Object.entries(indexers)) {
      try {
        fn(obj as T);
      } catch {
        return new IndexFunctionError(resource, name, key, cause);
      }
    }
  }
  return new IndexFunctionError(resource, '', key, cause);
}
