import type { ResourceType } from '../resources.js';
import type { StoredObject } from './storedObject.js';

/** One committed write: the unit of the global resourceVersion, of watch events and of history. */
export interface Change {
  readonly rv: number;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly resource: ResourceType;
  /** The new state; for DELETED, the last state carrying the delete's resourceVersion. */
  readonly obj: StoredObject;
  /** The state before (undefined for ADDED). */
  readonly prev: StoredObject | undefined;
}

/**
 * The bounded log of recent changes (etcd's revisions before compaction): watches resume from it,
 * lists at an older resourceVersion and continue tokens are rebuilt from it. It keeps at most
 * `limit` changes; `compactedRv` is the oldest resourceVersion one can still watch or list from.
 */
export class History {
  private events: Array<Change | undefined> = [];
  private head = 0;
  /** Every change after this revision is still here. */
  compactedRv = 0;

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.events.length - this.head;
  }

  push(c: Change): void {
    this.events.push(c);
    while (this.events.length - this.head > this.limit) {
      this.compactedRv = this.events[this.head]!.rv;
      this.events[this.head++] = undefined;
    }
    // Reclaim the dropped prefix now and then rather than shifting on every push.
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }

  /** Forgets everything up to `currentRv` (etcd compaction). */
  compact(currentRv: number): void {
    this.events = [];
    this.head = 0;
    this.compactedRv = currentRv;
  }

  /** The changes with a revision greater than `rv`, oldest first. */
  since(rv: number): Change[] {
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid]!.rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return this.events.slice(lo) as Change[];
  }
}
