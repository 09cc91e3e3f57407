import type { ServerResponse } from 'node:http';
import type { SchedulerLike, Subscription } from 'rxjs';
import type { Change } from '../storage/history.js';
import type { ResourceType } from '../resources.js';
import type { Selectors } from '../storage/selectors.js';
import { bookmarkLine, changeLine, errorLine } from './watchLines.js';
import { failure, StatusError } from '../status.js';

const END = Symbol('end');
/** kube-apiserver sends a last bookmark this long before a watch's deadline. */
const preTimeoutBookmarkMs = 2000;

/** What a watch stream was opened with. */
export interface WatchStreamOptions {
  /** Rewrites each line before it is sent (metadata-only watches); unset: lines as they are. */
  readonly encode?: (line: string) => string;
  /**
   * Converts each event line before `encode` (a custom resource's conversion webhook): lines keep
   * their order; a failed conversion ends the stream with an ERROR event carrying its Status.
   */
  readonly convert?: (line: string) => Promise<string>;
  readonly res: ServerResponse;
  readonly type: ResourceType;
  readonly namespace: string | undefined;
  readonly selectors: Selectors;
  readonly bookmarks: boolean;
  /** Changes at or before this revision are not sent (they are in the initial state or before the watch). */
  readonly startRv: number;
  readonly scheduler: SchedulerLike;
  /** The server's current revision, for bookmarks. */
  readonly currentRv: () => number;
  readonly slowMs: number;
  readonly onClose: (s: WatchStream) => void;
}

/**
 * One open watch connection: filters changes for its scope and selectors (with ADDED/DELETED on
 * selector transitions), writes one line per event, and serves the faults that act on open watches
 * (slow, stall, drop, error). Lines are written as they come; a burst in one tick is coalesced by
 * corking the socket until the next tick, so each event is flushed without a syscall per event.
 */
export class WatchStream {
  private readonly queue: Array<string | typeof END> = [];
  private pumping: Subscription | undefined;
  private readonly timers: Subscription[] = [];
  private corked = false;
  private closed = false;
  private stalled = false;
  private converting: Promise<void> | undefined;
  slowMs: number;

  constructor(readonly options: WatchStreamOptions) {
    this.slowMs = options.slowMs;
    options.res.on('close', () => this.cleanup());
  }

  get type(): ResourceType {
    return this.options.type;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /**
   * Arms the bookmarks and the server-side timeout. Bookmarks come as kube-apiserver's cacher sends
   * them (`nextBookmarkTime`): every `bookmarkIntervalMs`, and once more 2 s before the timeout, so
   * a client that resumes after the timeout is as close to now as possible. (A watch shorter than
   * 2 s, which only tests ask for, gets the periodic ones only: kube would send none.)
   */
  start(bookmarkIntervalMs: number, timeoutMs: number): void {
    const { scheduler } = this.options;
    if (this.options.bookmarks && bookmarkIntervalMs > 0) {
      const preTimeout =
        timeoutMs > preTimeoutBookmarkMs ? scheduler.now() + timeoutMs - preTimeoutBookmarkMs : Infinity;
      const arm = (): void => {
        const now = scheduler.now();
        const at = Math.min(now + bookmarkIntervalMs, preTimeout);
        if (at <= now) return;
        this.timers.push(
          scheduler.schedule(() => {
            this.sendBookmark();
            arm();
          }, at - now),
        );
      };
      arm();
    }
    this.timers.push(scheduler.schedule(() => this.end(), timeoutMs));
  }

  /** Sends `change` if it concerns this watch, as ADDED, MODIFIED or DELETED. */
  offer(c: Change): void {
    if (c.rv <= this.options.startRv || c.resource.id !== this.options.type.id) return;
    const ns = this.options.namespace;
    if (ns && c.obj.namespace !== ns) return;
    const sel = this.options.selectors;
    if (c.type === 'ADDED') {
      if (sel.matches(c.obj)) this.send(changeLine(c, 'ADDED'));
    } else if (c.type === 'DELETED') {
      if (sel.matches(c.obj)) this.send(changeLine(c, 'DELETED'));
    } else {
      const now = sel.matches(c.obj);
      const before = c.prev ? sel.matches(c.prev) : false;
      if (now && before) this.send(changeLine(c, 'MODIFIED'));
      else if (now) this.send(changeLine(c, 'ADDED'));
      else if (before) this.send(changeLine(c, 'DELETED'));
    }
  }

  sendBookmark(initialEventsEnd = false): void {
    if (!this.options.bookmarks) return;
    this.send(bookmarkLine(this.options.type, Math.max(this.options.currentRv(), this.options.startRv), initialEventsEnd));
  }

  /** Queues a raw line (an event, an ERROR, a malformed line). */
  send(raw: string): void {
    if (this.closed || this.stalled) return;
    const convert = this.options.convert;
    if (convert) {
      // In order: each line waits for the conversions before it.
      this.converting = (this.converting ?? Promise.resolve()).then(() =>
        this.closed
          ? undefined
          : convert(raw).then(
              (line) => this.deliver(line),
              (e: unknown) => {
                this.deliver(errorLine(e instanceof StatusError ? e.status : failure(500, 'InternalError', String(e))));
                this.end();
              },
            ),
      );
      return;
    }
    this.deliver(raw);
  }

  private deliver(raw: string): void {
    if (this.closed || this.stalled) return;
    const line = this.options.encode ? this.options.encode(raw) : raw;
    if (this.slowMs > 0 || this.queue.length > 0) {
      this.queue.push(line);
      this.pump();
    } else this.write(line);
  }

  /** Ends the stream cleanly (after what is queued), as a server-side timeout does. */
  end(): void {
    if (this.closed) return;
    if (this.converting) {
      const waiting = this.converting;
      this.converting = undefined;
      void waiting.then(() => this.end());
      return;
    }
    if (this.queue.length > 0) this.queue.push(END);
    else this.finish();
  }

  /** Stops sending anything, keeping the socket open (a dead connection, as seen by the client). */
  stall(): void {
    this.stalled = true;
    this.queue.length = 0;
    this.clearTimers();
  }

  /** Drops the connection abruptly (no terminating chunk). */
  destroy(): void {
    this.cleanup();
    this.options.res.destroy();
  }

  private write(line: string): void {
    const res = this.options.res;
    if (!this.corked) {
      this.corked = true;
      res.cork();
      process.nextTick(() => {
        if (!this.corked) return; // finish() uncorked already
        this.corked = false;
        res.uncork();
      });
    }
    res.write(line);
  }

  private pump(): void {
    if (this.pumping || this.closed) return;
    const step = (): void => {
      this.pumping = undefined;
      const next = this.queue.shift();
      if (next === undefined) return;
      if (next === END) {
        this.finish();
        return;
      }
      this.write(next);
      if (this.queue.length > 0) this.pump();
    };
    if (this.slowMs > 0) this.pumping = this.options.scheduler.schedule(step, this.slowMs);
    else {
      // Drain synchronously once slowness is lifted.
      while (this.queue.length > 0 && !this.closed) step();
    }
  }

  private finish(): void {
    if (this.closed) return;
    const res = this.options.res;
    this.cleanup();
    // Uncork first: Node 24 writes the terminating chunk of a corked response before the corked
    // data, so an ERROR event written just before the end would never reach the client.
    if (this.corked) {
      this.corked = false;
      res.uncork();
    }
    res.end();
  }

  private clearTimers(): void {
    for (const t of this.timers) t.unsubscribe();
    this.timers.length = 0;
    this.pumping?.unsubscribe();
    this.pumping = undefined;
  }

  private cleanup(): void {
    if (this.closed) return;
    this.closed = true;
    this.clearTimers();
    this.queue.length = 0;
    this.options.onClose(this);
  }
}
