import { Observable } from 'rxjs';
import type { Notification } from '../informer/notification.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import type { ChangePredicate } from './changePredicate.js';
import { SOURCE_SYNCED, type InformerKeysOptions, type KeySource } from './keySource.js';
import { changePriority, primaryKey, type TriggerInformer } from './triggerSource.js';

// The one implementation of a source of keys built from an informer's changes (informerKeys,
// forKeys, triggerKeys, and the controller's own for / owns / watches). Internal: not exported
// from the package.

/**
 * The keys an informer's changes map to, as a source: subscribing adds a handler to the informer
 * (and starts it), unsubscribing removes it. The mapping may answer one key as a string (no array
 * per change: the primary's source maps each change to one key) or none (undefined). With `plain`,
 * a key at priority 0 is emitted as the string itself (what the controller's own sources do: no
 * object per change); otherwise every key is a `Trigger`. `changed` is told of each key emitted
 * with its change (the controller's tracing: the changes coalesced into a reconcile).
 *
 * @internal
 * @example
 * ```ts
 * const source = changeKeys(pods, (n) => primaryKey(n), { name: 'pods' }, true);
 * ```
 */
export function changeKeys<T>(
  informer: TriggerInformer<T>,
  keysOf: (change: Notification<T>, key: string | undefined) => Iterable<string> | string | undefined,
  options: InformerKeysOptions<T>,
  plain: boolean,
  changed?: (key: string, change: Notification<T>) => void,
): KeySource {
  return new Observable((subscriber) => {
    const registration = informer.addEventHandler(
      {
        // `key`: the key the informer stores the object under (its listener hands it on).
        next: (change: Notification<T>, key?: string) => {
          // The mapping is the controller's code, not the informer's: its failure goes down this
          // source to the controller's errors$. A lazy iterable is drained here, inside the try.
          let keys: ReadonlyArray<string> | string | undefined;
          try {
            const mapped = keysOf(change, key);
            keys = mapped === undefined || typeof mapped === 'string' || Array.isArray(mapped) ? (mapped as ReadonlyArray<string> | string | undefined) : [...mapped];
          } catch (e) {
            subscriber.next({ keysFailed: e });
            return;
          }
          // Told of every change, even one that maps to no key (it may show a write waited for).
          const skip = options.seen?.(change);
          if (keys === undefined) return;
          const priority = changePriority(change as Notification<KubeObjectLike>);
          const asKey = plain && priority === 0;
          if (typeof keys === 'string') {
            if (skip?.has(keys)) return;
            changed?.(keys, change);
            subscriber.next(asKey ? keys : { key: keys, priority });
            return;
          }
          for (let i = 0; i < keys.length; i++) {
            if (skip?.has(keys[i])) continue;
            changed?.(keys[i], change);
            subscriber.next(asKey ? keys[i] : { key: keys[i], priority });
          }
        },
      },
      options.name === undefined ? undefined : { name: options.name },
    );
    const synced = registration.synced$.subscribe((s) => {
      if (s) subscriber.next(SOURCE_SYNCED);
    });
    informer.start();
    return () => {
      synced.unsubscribe();
      registration.remove();
    };
  });
}

/**
 * The mapping of the primary's own changes (controller-runtime's `For`): its key, if the change
 * passes every predicate. The key is the one the informer stores the object under when the
 * informer hands it on (the same string its store hashed: the queue's and `getByKey`'s lookups of
 * it cost less than of a key made again, bench/controller.mjs), else made from the object.
 *
 * @internal
 * @example
 * ```ts
 * changeKeys(deployments, primaryKeysOf([generationChanged]), {}, true);
 * ```
 */
export function primaryKeysOf<T extends KubeObjectLike>(
  predicates: ReadonlyArray<ChangePredicate<T>>,
): (change: Notification<T>, key?: string) => string | undefined {
  return (change, key) => {
    for (let i = 0; i < predicates.length; i++) if (!predicates[i](change)) return undefined;
    return key ?? primaryKey(change);
  };
}
