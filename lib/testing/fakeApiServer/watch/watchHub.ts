import type { Change } from '../storage/history.js';
import type { WatchStream } from './watchStream.js';

/**
 * The open watches, by resource type. Each committed change is offered to the watches of its type,
 * in commit order (that is, resourceVersion order), unless a fault drops it.
 */
export class WatchHub {
  private readonly byType = new Map<string, Set<WatchStream>>();
  /** Set by faults: returns true to keep a change from every open watch. */
  dropFilter: ((c: Change) => boolean) | undefined;

  add(s: WatchStream): void {
    let set = this.byType.get(s.type.id);
    if (!set) this.byType.set(s.type.id, (set = new Set()));
    set.add(s);
  }

  remove(s: WatchStream): void {
    this.byType.get(s.type.id)?.delete(s);
  }

  dispatch(c: Change): void {
    const set = this.byType.get(c.resource.id);
    if (!set || set.size === 0) return;
    if (this.dropFilter?.(c)) return;
    for (const s of set) s.offer(c);
  }

  /** Every open watch (a copy, safe to iterate while closing them). */
  all(): WatchStream[] {
    return [...this.byType.values()].flatMap((s) => [...s]);
  }
}
