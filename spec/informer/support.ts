// Shared test fixtures for the informer specs (not a spec file itself).
import { expect } from '@jest/globals';
import { asyncScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { Informer, InformerOptions } from '../../lib/informer/informer.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { listedPod } from '../support/pods.js';

export interface Pod {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace: string;
    resourceVersion: string;
    labels?: Record<string, string>;
    managedFields?: unknown[];
  };
  spec?: { nodeName?: string };
}

export const pod = (name: string, rv: string, extra: Partial<Pod> = {}): Pod => ({ ...listedPod(name, rv), ...extra });

export const added = (object: Pod): WatchEvent<Pod> => ({ type: 'ADDED', object });
export const modified = (object: Pod): WatchEvent<Pod> => ({ type: 'MODIFIED', object });
export const deleted = (object: Pod): WatchEvent<Pod> => ({ type: 'DELETED', object });
export const expired = (): WatchEvent<Pod> => ({
  type: 'ERROR',
  object: {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    message: 'too old resource version',
    reason: 'Expired',
    code: 410,
  },
});

/** Deterministic reflector timing for virtual-time tests: no jitter, 100 ms backoff. */
export const fast: InformerOptions<Pod> = {
  reflector: { random: () => 0, backoff: { initialMs: 100, capMs: 100, jitter: 0 } },
};

export const testScheduler = (): TestScheduler =>
  new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** Stops the informer at virtual time `ms` (inside `TestScheduler.run`), so that the flush ends. */
export function stopAt(inf: Informer<Pod>, ms: number): void {
  asyncScheduler.schedule(() => void inf.stop(), ms);
}

/** Runs `fn` at virtual time `ms` (inside `TestScheduler.run`). */
export function at(ms: number, fn: () => void): void {
  asyncScheduler.schedule(fn, ms);
}
