/**
 * What ties the things a test starts to the fake API server they talk to: `rxkube/testing`'s server
 * puts a {@link Lifetime} on each KubeConfig it hands out, and the factories, controllers and leader
 * electors made from it adopt themselves into it, so that closing the server stops whatever is still
 * running (a test that failed before its cleanup ends instead of retrying forever). Internal: not
 * exported from `rxkube`; the marker is a registered symbol so that two copies of rxkube agree.
 */

/** Something running that a {@link Lifetime} stops when it ends. */
export interface Lifetime {
  /**
   * Registers `thing`, running: `describe()` names it when the lifetime ends while it still runs,
   * `stop()` stops it. Returns the function to call when it stops by itself (it unregisters it).
   *
   * @example
   * ```ts
   * const release = lifetime.adopt(ctl, () => 'controller "backup"', () => ctl.stop());
   * ```
   */
  adopt(thing: object, describe: () => string, stop: () => Promise<void>): () => void;
}

const LIFETIME = Symbol.for('rxkube.lifetime');
// Objects that cannot take a property (frozen factories and informers) are kept here.
const frozen = new WeakMap<object, Lifetime>();

/**
 * The lifetime `thing` belongs to, if any (a KubeConfig of the fake API server, an informer made from one).
 *
 * @example
 * ```ts
 * lifetimeOf(api.kubeConfig())?.adopt(watcher, () => 'my watcher', () => watcher.stop());
 * ```
 */
export function lifetimeOf(thing: unknown): Lifetime | undefined {
  if (typeof thing !== 'object' || thing === null) return undefined;
  return (thing as { [LIFETIME]?: Lifetime })[LIFETIME] ?? frozen.get(thing);
}

/**
 * Marks `thing` as belonging to `lifetime` (nothing when `lifetime` is undefined); returns `thing`.
 *
 * @example
 * ```ts
 * const kc = attachLifetime(new KubeConfig(), lifetime);
 * ```
 */
export function attachLifetime<T extends object>(thing: T, lifetime: Lifetime | undefined): T {
  if (lifetime === undefined) return thing;
  if (Object.isExtensible(thing)) Object.defineProperty(thing, LIFETIME, { value: lifetime, enumerable: false, configurable: true });
  else frozen.set(thing, lifetime);
  return thing;
}
