import { defer, NEVER, type Observable, type SchedulerLike } from 'rxjs';
import { ApiStatusError, type Status } from '../../lib/errors.js';
import type { ListOptions, ListPage, ListWatch, WatchOptions } from '../../lib/listwatch/listWatch.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import { listedPod } from '../support/pods.js';

/** A request the scripted ListWatch received, and when (scheduler time). */
export type Call =
  | { readonly op: 'list'; readonly options: ListOptions; readonly at: number }
  | { readonly op: 'watch'; readonly options: WatchOptions; readonly at: number };

/**
 * A ListWatch for tests of the reflector's decisions: the n-th list (watch) subscription gets the
 * n-th scripted Observable (NEVER once the script runs out), and every call is recorded with its
 * time. A stand-in for the real one, which talks HTTP and is tested on loopback.
 */
export function scriptedListWatch<T>(
  scheduler: SchedulerLike,
  lists: ReadonlyArray<(options: ListOptions) => Observable<ListPage<T>>>,
  watches: ReadonlyArray<(options: WatchOptions) => Observable<WatchEvent<T>>>,
): ListWatch<T> & { readonly calls: Call[]; listCalls(): Call[]; watchCalls(): Call[] } {
  const calls: Call[] = [];
  let l = 0;
  let w = 0;
  return {
    calls,
    listCalls: () => calls.filter((c) => c.op === 'list'),
    watchCalls: () => calls.filter((c) => c.op === 'watch'),
    list: (options) =>
      defer(() => {
        calls.push({ op: 'list', options, at: scheduler.now() });
        const next = lists[l++];
        return next ? next(options) : NEVER;
      }),
    watch: (options) =>
      defer(() => {
        calls.push({ op: 'watch', options, at: scheduler.now() });
        const next = watches[w++];
        return next ? next(options) : NEVER;
      }),
  };
}

export interface Pod extends KubeObject {
  readonly spec?: { readonly v?: number };
}

export const pod = (name: string, rv: string, v = 0): Pod => ({ ...listedPod(name, rv), spec: { v } });

export const page = (items: Pod[], resourceVersion: string, cont = ''): ListPage<Pod> => ({
  items,
  resourceVersion,
  continue: cont,
});

export const bookmark = (rv: string, initialEventsEnd = false): WatchEvent<Pod> => ({
  type: 'BOOKMARK',
  object: {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      resourceVersion: rv,
      ...(initialEventsEnd ? { annotations: { 'k8s.io/initial-events-end': 'true' } } : {}),
    },
  },
});

export const status = (code: number, reason: string, extra: Partial<Status> = {}): Status => ({
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  code,
  reason,
  message: `${code} ${reason}`,
  ...extra,
});

export const apiError = (
  code: number,
  reason: string,
  retryAfterSeconds?: number,
  extra: Partial<Status> = {},
) =>
  new ApiStatusError(
    status(code, reason, extra),
    retryAfterSeconds === undefined ? {} : { retryAfterSeconds },
  );
