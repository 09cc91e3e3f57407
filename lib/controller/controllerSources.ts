import { Subject, Subscription, type Observable } from 'rxjs';
import { ControllerSourceError } from './controllerSourceError.js';
import { isKeysFailed, SOURCE_SYNCED, type KeySource } from './keySource.js';

/**
 * Options of {@link ControllerSources}.
 *
 * @example
 * ```ts
 * const options: ControllerSourcesOptions = { name: 'web', enqueue: (k, p) => queue.add(k, { priority: p }), synced: () => {} };
 * ```
 */
export interface ControllerSourcesOptions {
  readonly name: string;
  readonly enqueue: (key: string, priority: number) => void;
  /** Called once every source added with `syncs` has synced (or ended). */
  readonly synced: () => void;
}

/**
 * A controller's sources of keys: each subscribed from `start()` (or at once, if added later) until
 * `close()`. Keys go to `enqueue`; errors, completions and emissions that are no key are on its
 * `errors$` (the controller's `errors$` merges it: one error channel per object, no callback up).
 * Sources added with `syncs` (the controller's informers) hold `synced` back until each has
 * emitted {@link SOURCE_SYNCED} or ended; sources added after start never do.
 *
 * @example
 * ```ts
 * const sources = new ControllerSources(options);
 * sources.add(forKeys(deployments), 'for', true);
 * sources.errors$.subscribe((e) => console.warn(e.message));
 * sources.start();
 * ```
 */
export class ControllerSources {
  private readonly errors = new Subject<ControllerSourceError>();
  /** Each source that errored or completed, each emission that is no key. Hot; completes on `close()`. */
  readonly errors$: Observable<ControllerSourceError> = this.errors.asObservable();
  private state: 'idle' | 'started' | 'closed' = 'idle';
  private readonly queued: Array<{ source: KeySource; name: string; sub: Subscription; syncs: boolean }> = [];
  private readonly subs = new Subscription();
  private unsynced = 0;
  private count = 0;

  constructor(private readonly options: ControllerSourcesOptions) {}

  /**
   * Adds a source; returns a Subscription that removes it. Before start it waits; once closed it is
   * not subscribed.
   */
  add(source: KeySource, name = `sources[${this.count}]`, syncs = false): Subscription {
    this.count++;
    const sub = new Subscription();
    if (this.state === 'closed') {
      sub.unsubscribe();
      return sub;
    }
    this.subs.add(sub);
    sub.add(() => this.subs.remove(sub));
    if (syncs && this.state === 'idle') this.unsynced++;
    if (this.state === 'idle') this.queued.push({ source, name, sub, syncs });
    else this.subscribe(source, name, sub, false);
    return sub;
  }

  /** Subscribes the sources added so far; `synced` at once if none of them syncs. */
  start(): void {
    if (this.state !== 'idle') return;
    this.state = 'started';
    if (this.unsynced === 0) this.options.synced();
    for (const { source, name, sub, syncs } of this.queued.splice(0)) this.subscribe(source, name, sub, syncs);
  }

  /** Unsubscribes every source; later ones are ignored. */
  close(): void {
    this.state = 'closed';
    this.queued.length = 0;
    this.subs.unsubscribe();
    this.errors.complete();
  }

  private subscribe(source: KeySource, name: string, sub: Subscription, syncs: boolean): void {
    let pendingSync = syncs;
    const markSynced = () => {
      if (!pendingSync) return;
      pendingSync = false;
      if (--this.unsynced === 0) this.options.synced();
    };
    const ended = (reason: 'error' | 'complete', cause?: unknown) => {
      // Closing tears sources down without completing them: only a source's own end is reported.
      if (this.state === 'closed') return;
      this.errors.next(new ControllerSourceError(this.options.name, name, reason, cause));
      markSynced();
    };
    sub.add(
      source.subscribe({
        next: (e) => {
          if (e === SOURCE_SYNCED) return markSynced();
          if (typeof e === 'string' && e !== '') return this.options.enqueue(e, 0);
          if (isTrigger(e)) return this.options.enqueue(e.key, e.priority ?? 0);
          if (isKeysFailed(e)) return this.errors.next(new ControllerSourceError(this.options.name, name, 'keysFailed', e.keysFailed));
          this.errors.next(new ControllerSourceError(this.options.name, name, 'invalidKey', e));
        },
        error: (e: unknown) => ended('error', e),
        complete: () => ended('complete'),
      }),
    );
  }
}

function isTrigger(e: unknown): e is { key: string; priority?: number } {
  if (e === null || typeof e !== 'object') return false;
  const { key, priority } = e as { key?: unknown; priority?: unknown };
  return typeof key === 'string' && key !== '' && (priority === undefined || Number.isFinite(priority));
}
