import type { Lifetime } from '../../meta/lifetime.js';
import type { WatchHub } from './watch/watchHub.js';

/**
 * What `api.use()` takes: anything that stops, as rxkube's factories (`shutdown`), controllers and
 * leader electors (`stop`) do, or that `await using` could end (`Symbol.asyncDispose`).
 *
 * @example
 * ```ts
 * const stoppable: Stoppable = sharedInformerFactory(api.kubeConfig());
 * ```
 */
export type Stoppable =
  | { shutdown(): Promise<void> | void }
  | { stop(): Promise<void> | void }
  | { [Symbol.asyncDispose](): Promise<void> };

interface Adopted {
  readonly describe: (() => string) | undefined; // undefined: registered by api.use(), stopped without a word
  readonly stop: () => Promise<void>;
}

/** The server's side of {@link Lifetime}: what runs against it, stopped (newest first) when it closes. */
export interface ServerLifetime extends Lifetime {
  use<T extends Stoppable>(thing: T): T;
  /**
   * Stops everything still registered, newest first; resolves with the descriptions of what had
   * registered itself (the factories, controllers and electors made from the server's KubeConfig)
   * and so was still running. Their errors are collected, not thrown, so that each one is stopped.
   */
  end(): Promise<{ readonly stillRunning: ReadonlyArray<string>; readonly used: number; readonly errors: ReadonlyArray<unknown> }>;
}

function stopOf(thing: Stoppable): () => Promise<void> {
  const t = thing as Partial<{ shutdown(): unknown; stop(): unknown; [Symbol.asyncDispose](): unknown }>;
  if (typeof t.shutdown === 'function') return async () => void (await t.shutdown!());
  if (typeof t.stop === 'function') return async () => void (await t.stop!());
  const dispose = typeof Symbol.asyncDispose === 'symbol' ? t[Symbol.asyncDispose] : undefined;
  if (typeof dispose === 'function') return async () => void (await dispose.call(thing));
  throw new TypeError('api.use(thing): thing has no shutdown(), stop() or [Symbol.asyncDispose]()');
}

/**
 * The lifetime of one fake API server.
 *
 * @example
 * ```ts
 * const lifetime = serverLifetime();
 * const { stillRunning } = await lifetime.end();
 * ```
 */
export function serverLifetime(): ServerLifetime {
  const adopted = new Map<object, Adopted>();
  return {
    adopt(thing, describe, stop) {
      const entry: Adopted = { describe: adopted.get(thing)?.describe === undefined && adopted.has(thing) ? undefined : describe, stop };
      adopted.set(thing, entry);
      return () => {
        if (adopted.get(thing) === entry) adopted.delete(thing);
      };
    },
    use(thing) {
      // Registered on purpose: stopped at close without a word, even if it also registered itself.
      adopted.set(thing, { describe: undefined, stop: adopted.get(thing)?.stop ?? stopOf(thing) });
      return thing;
    },
    async end() {
      const entries = [...adopted.values()].reverse();
      adopted.clear();
      const stillRunning = [...new Set(entries.flatMap((e) => (e.describe ? [e.describe()] : [])))];
      const errors: unknown[] = [];
      for (const e of entries) {
        try {
          await e.stop();
        } catch (error) {
          errors.push(error);
        }
      }
      return { stillRunning, used: entries.length - entries.filter((e) => e.describe).length, errors };
    },
  };
}

/**
 * The watches open on `hub`, as "USER-AGENT watching RESOURCE[ in NAMESPACE]" (one line per kind,
 * with a count when more than one).
 *
 * @example
 * ```ts
 * openWatchDescriptions(hub); // ['rxkube watching configmaps', 'node-fetch watching pods in shop (2 watches)']
 * ```
 */
export function openWatchDescriptions(hub: WatchHub): string[] {
  const counts = new Map<string, number>();
  for (const s of hub.all()) {
    if (!s.isOpen) continue;
    const { res, type, namespace } = s.options;
    const agent = res.req?.headers['user-agent'] ?? 'a client without a User-Agent';
    const resource = type.group === '' ? type.plural : `${type.plural}.${type.group}`;
    const line = `${agent} watching ${resource}${namespace ? ` in ${namespace}` : ''}`;
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return [...counts].map(([line, n]) => (n > 1 ? `${line} (${n} watches)` : line));
}

/**
 * The one message a close says when things still ran against the server, or undefined when nothing did.
 *
 * @example
 * ```ts
 * unstoppedMessage(api.url, ['controller "backup" (call its stop())'], ['rxkube watching backups.example.com']);
 * ```
 */
export function unstoppedMessage(url: string, stillRunning: ReadonlyArray<string>, watches: ReadonlyArray<string>): string | undefined {
  if (stillRunning.length === 0 && watches.length === 0) return undefined;
  const parts = [`rxkube/testing: the fake API server ${url} was closed while clients still used it.`];
  if (stillRunning.length > 0) {
    parts.push(`Still running, made from its kubeConfig(): ${stillRunning.join('; ')}. close() stopped them.`);
  }
  if (watches.length > 0) parts.push(`Watches still open: ${watches.join('; ')}.`);
  parts.push(
    'Stop what you start before api.close() (controller.stop(), factory.shutdown(), elector.stop()), ' +
      'or hand it to the server: api.use(thing) stops it at close, and `await using api = await startFakeApiServer()` closes the server when the test ends, even when it fails.',
  );
  return parts.join(' ');
}
