import { describe, expect, it } from '@jest/globals';
import { EMPTY } from 'rxjs';
import {
  bucketRateLimiter,
  ConfigError,
  controller,
  controllerReference,
  informer,
  builtInResources,
  listWatch,
  itemExponentialFailureRateLimiter,
  itemFastSlowRateLimiter,
  leaderElection,
  maxOfRateLimiter,
  owned,
  RxkubeError,
  workQueue,
  type RateLimiter,
  type Transport,
} from '../lib/index.js';
import * as rxkube from '../lib/index.js';
import { fakeListWatch, memoryLeaseStore } from '../lib/testing/index.js';

type Pod = { metadata?: { name?: string; namespace?: string } };

// What `make` threw: the test fails if it threw nothing, or something else than a ConfigError.
function thrownBy(make: () => unknown): ConfigError {
  try {
    make();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw new Error(`expected a ConfigError, got ${String(e)}`, { cause: e });
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}

const pods = informer(fakeListWatch<Pod>({ lists: [] }), { logger: false });
const reconcile = (): void => undefined;
const lock = memoryLeaseStore().lock('a');
const make = {
  informer: (lw: unknown) => () => informer(lw as Parameters<typeof informer>[0]),
  handler: (handler: unknown, options?: object) => () => pods.addEventHandler(handler as Parameters<typeof pods.addEventHandler>[0], options),
  controller: (options: object) => () => controller({ for: pods, reconcile, ...options } as Parameters<typeof controller>[0]),
  elector: (config: object) => () => leaderElection({ lock, identity: 'a', ...config } as Parameters<typeof leaderElection>[0]),
};
const notALimiter = {} as RateLimiter<string>;
// Never asked: the namespace is refused when the ListWatch is made.
const transport: Transport = {
  request: () => {
    throw new Error('no request expected');
  },
};

describe('ConfigError: one class for an option rxkube cannot work with, naming the option', () => {
  it.each<[string, () => unknown, string, unknown, RegExp]>([
    ['informer: not a ListWatch', make.informer({ list: 1 }), 'listWatch', { list: 1 }, /listWatch must have list and watch functions/],
    ['handler: a function', make.handler(reconcile), 'handler', reconcile, /got a function/],
    ['handler: null', make.handler(null), 'handler', null, /got null/],
    ['handler: add not a function', make.handler({ add: 5 }), 'handler.add', 5, /handler.add is a number/],
    ['handler: buffer.size 0', make.handler({}, { buffer: { size: 0 } }), 'buffer.size', 0, /buffer.size must be at least 1/],
    ['controller: for', make.controller({ for: {} }), 'for', {}, /options.for must be the informer/],
    ['controller: reconcile', make.controller({ reconcile: 'r' }), 'reconcile', 'r', /options.reconcile must be a function/],
    ['controller: concurrency', make.controller({ concurrency: 0 }), 'concurrency', 0, /concurrency must be a whole number/],
    ['controller: readYourWrites', make.controller({ readYourWrites: 'yes' }), 'readYourWrites', 'yes', /readYourWrites must be true or false/],
    ['controller: cacheSyncTimeout', make.controller({ cacheSyncTimeout: 0 }), 'cacheSyncTimeout', 0, /cacheSyncTimeout must be a number of milliseconds/],
    ['controller: reconcileTimeout', make.controller({ reconcileTimeout: -1 }), 'reconcileTimeout', -1, /reconcileTimeout must be/],
    ['controller: readYourWritesTimeout', make.controller({ readYourWritesTimeout: Number.NaN }), 'readYourWritesTimeout', Number.NaN, /readYourWritesTimeout must be/],
    ['controller: rateLimiter', make.controller({ rateLimiter: {} }), 'rateLimiter', {}, /rateLimiter must have when, forget and numRequeues/],
    ['controller: leading$', make.controller({ leading$: true }), 'leading$', true, /leading\$ must be an Observable/],
    ['controller: keyFilter$', make.controller({ keyFilter$: reconcile }), 'keyFilter$', reconcile, /keyFilter\$ must be an Observable/],
    ['controller: sources', make.controller({ sources: EMPTY }), 'sources', EMPTY, /sources must be an array/],
    ['controller: sources[1]', make.controller({ sources: [EMPTY, 3] }), 'sources[1]', 3, /sources\[1\] must be an Observable of keys/],
    ['controller: owns', make.controller({ owns: pods }), 'owns', pods, /owns must be an array/],
    ['controller: owns[0]', make.controller({ owns: [null] }), 'owns[0]', null, /owns\[0\] must be an informer or a trigger source/],
    ['controller: watches[0]', make.controller({ watches: [pods] }), 'watches[0]', pods, /watches\[0\] must be a trigger source/],
    ['controller: forKind', make.controller({ owns: [owned(pods)] }), 'forKind', undefined, /owns needs forKind/],
    ['leader election: config', () => leaderElection(null as unknown as Parameters<typeof leaderElection>[0]), 'config', null, /the config must be an object/],
    ['leader election: lock', make.elector({ lock: {} }), 'lock', {}, /lock must be a ResourceLock/],
    ['leader election: leaseDuration > 0', make.elector({ leaseDuration: 0 }), 'leaseDuration', 0, /leaseDuration must be greater than zero/],
    ['leader election: leaseDuration > renewDeadline', make.elector({ leaseDuration: 10_000 }), 'leaseDuration', 10_000, /must be greater than renewDeadline/],
    ['leader election: renewDeadline', make.elector({ renewDeadline: 2_400 }), 'renewDeadline', 2_400, /must be greater than retryPeriod x 1.2/],
    ['leader election: retryPeriod', make.elector({ retryPeriod: -1 }), 'retryPeriod', -1, /retryPeriod must be greater than zero/],
    ['leader election: identity', make.elector({ identity: '' }), 'identity', '', /identity must be a non-empty string/],
    ['bucketRateLimiter: qps', () => bucketRateLimiter({ qps: 0 }), 'qps', 0, /bucketRateLimiter: qps must be a number above 0/],
    ['bucketRateLimiter: burst', () => bucketRateLimiter({ burst: 0.5 }), 'burst', 0.5, /burst must be a number >= 1, got 0.5/],
    ['itemExponentialFailureRateLimiter: baseMs', () => itemExponentialFailureRateLimiter({ baseMs: -1 }), 'baseMs', -1, /baseMs must be a number >= 0/],
    ['itemExponentialFailureRateLimiter: maxMs', () => itemExponentialFailureRateLimiter({ maxMs: Number.NaN }), 'maxMs', Number.NaN, /maxMs must be/],
    ['itemFastSlowRateLimiter: fastMs', () => itemFastSlowRateLimiter({ fastMs: -1, slowMs: 1, maxFastAttempts: 1 }), 'fastMs', -1, /fastMs must be/],
    ['itemFastSlowRateLimiter: slowMs', () => itemFastSlowRateLimiter({ fastMs: 1, slowMs: -1, maxFastAttempts: 1 }), 'slowMs', -1, /slowMs must be/],
    ['itemFastSlowRateLimiter: maxFastAttempts', () => itemFastSlowRateLimiter({ fastMs: 1, slowMs: 1, maxFastAttempts: -1 }), 'maxFastAttempts', -1, /maxFastAttempts must be/],
    ['maxOfRateLimiter: limiters[1]', () => maxOfRateLimiter(bucketRateLimiter(), notALimiter), 'limiters[1]', notALimiter, /maxOfRateLimiter: limiters\[1\] must be a rate limiter/],
    ['workQueue: rateLimiter', () => workQueue({ rateLimiter: notALimiter }), 'rateLimiter', notALimiter, /workQueue: rateLimiter must be a rate limiter/],
    ['listWatch: namespace of a cluster-scoped resource', () => listWatch(transport, builtInResources.nodes, { namespace: 'shop' }), 'namespace', 'shop', /nodes is cluster-scoped: a namespace \(shop\) makes no sense for it/],
    ['controllerReference: apiVersion', () => controllerReference({ metadata: { name: 'x', uid: 'u' } }), 'apiVersion', undefined, /controllerReference needs/],
    ['controllerReference: kind', () => controllerReference({ apiVersion: 'v1', metadata: { name: 'x', uid: 'u' } }), 'kind', undefined, /controllerReference needs/],
    ['controllerReference: metadata.name', () => controllerReference({ metadata: { uid: 'u' } }, { apiVersion: 'v1', kind: 'Pod' }), 'metadata.name', undefined, /controllerReference needs/],
    ['controllerReference: metadata.uid', () => controllerReference({ metadata: { name: 'x', uid: '' } }, { apiVersion: 'v1', kind: 'Pod' }), 'metadata.uid', '', /controllerReference needs/],
  ])('%s', (_what, build, option, value, message) => {
    const e = thrownBy(build);
    expect(e.option).toBe(option);
    expect(e.value).toEqual(value);
    expect(e.message).toMatch(message);
    expect(e.code).toBe('ConfigError');
    expect(e.name).toBe('ConfigError');
    expect(e).toBeInstanceOf(RxkubeError);
  });

  it('is the one class: the per-area names of earlier versions are not exported; the leader election prefix stays', () => {
    const e = thrownBy(make.elector({ identity: '' }));
    const removed = ['InformerConfigError', 'ControllerConfigError', 'LeaderElectionConfigError', 'RateLimiterConfigError'];
    expect(Object.keys(rxkube).filter((name) => removed.includes(name))).toEqual([]);
    expect(Object.keys(rxkube)).toContain('ConfigError');
    expect(thrownBy(() => bucketRateLimiter({ qps: 0 })).option).toBe('qps');
    expect('field' in e).toBe(false);
    expect(e.message).toBe('invalid leader election config: identity must be a non-empty string, unique per replica (e.g. the pod name)');
  });
});
