import { isObservable } from 'rxjs';
import { ConfigError } from '../configError.js';
import { describeValue } from '../meta/describeValue.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { missingMethods } from '../meta/missingMethods.js';
import { RATE_LIMITER_METHODS } from '../workqueue/rateLimiterOptions.js';
import type { ControllerOptions } from './controllerOptions.js';

const hasMethods = (v: unknown, methods: ReadonlyArray<string>): boolean =>
  typeof v === 'object' && missingMethods(v, methods).length === 0;

const shown = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? 'an array' : describeValue(v));

/**
 * Checks a controller's options as `controller()` is called, so that plain JavaScript (no compiler
 * to say it) meets a {@link ConfigError} naming the option at once, not a TypeError at `start()` or a
 * controller that fails in a way that looks like the cluster's fault (a cache-sync timeout of
 * `NaN` ms failing at once, every reconcile timing out). Returns the number of workers.
 *
 * @example
 * ```ts
 * const concurrency = checkControllerOptions('pods', { for: pods, reconcile, concurrency: 4 }); // 4
 * ```
 */
export function checkControllerOptions<T extends KubeObjectLike>(name: string, options: ControllerOptions<T>): number {
  const fail = (option: string, value: unknown, message: string): never => {
    throw new ConfigError(option, `controller ${JSON.stringify(name)}: ${message}`, { value });
  };
  if (!hasMethods(options?.for, ['addEventHandler', 'getByKey', 'listKeys'])) {
    fail('for', options?.for, `options.for must be the informer of the primary objects (addEventHandler, getByKey, listKeys), got ${shown(options?.for)}`);
  }
  if (typeof options.reconcile !== 'function') {
    fail('reconcile', options.reconcile, `options.reconcile must be a function (key, ctx) => result, got ${shown(options.reconcile)}`);
  }
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) fail('concurrency', concurrency, `concurrency must be a whole number >= 1, got ${shown(concurrency)}`);
  if (options.readYourWrites !== undefined && typeof options.readYourWrites !== 'boolean') {
    fail('readYourWrites', options.readYourWrites, `readYourWrites must be true or false, got ${shown(options.readYourWrites)}`);
  }
  for (const field of ['cacheSyncTimeout', 'reconcileTimeout', 'readYourWritesTimeout'] as const) {
    const ms = options[field];
    if (ms !== undefined && !(typeof ms === 'number' && ms > 0)) {
      fail(field, ms, `${field} must be a number of milliseconds > 0 (Infinity: none), got ${shown(ms)}`);
    }
  }
  if (options.rateLimiter !== undefined && !hasMethods(options.rateLimiter, RATE_LIMITER_METHODS)) {
    fail('rateLimiter', options.rateLimiter, `rateLimiter must have when, forget and numRequeues (e.g. defaultControllerRateLimiter()), got ${shown(options.rateLimiter)}`);
  }
  for (const field of ['leading$', 'keyFilter$'] as const) {
    if (options[field] !== undefined && !isObservable(options[field])) fail(field, options[field], `${field} must be an Observable, got ${shown(options[field])}`);
  }
  if (options.sources !== undefined) {
    if (!Array.isArray(options.sources)) fail('sources', options.sources, `sources must be an array of Observables of keys, got ${shown(options.sources)}`);
    options.sources.forEach((s, i) => {
      if (!isObservable(s)) fail(`sources[${i}]`, s, `sources[${i}] must be an Observable of keys, got ${shown(s)}`);
    });
  }
  for (const field of ['owns', 'watches'] as const) {
    const list: unknown = options[field];
    if (list === undefined) continue;
    if (!Array.isArray(list)) fail(field, list, `${field} must be an array, got ${shown(list)}`);
    (list as unknown[]).forEach((entry, i) => {
      const ok =
        field === 'owns'
          ? hasMethods(entry, ['keysOf']) || hasMethods(entry, ['addEventHandler'])
          : hasMethods(entry, ['keysOf']);
      if (!ok) fail(`${field}[${i}]`, entry, `${field}[${i}] must be ${field === 'owns' ? 'an informer or ' : ''}a trigger source, got ${shown(entry)}`);
    });
  }
  return concurrency;
}
