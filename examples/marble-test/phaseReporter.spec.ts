// A marble test of a handler with rxkube/testing: a scripted ListWatch on virtual time drives a real
// informer, and the handler's reports are asserted as a marble diagram. No server, no sleeps.
import { describe, expect, it } from '@jest/globals';
import type { V1Pod } from '@kubernetes/client-node';
import { asyncScheduler, Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { informer, type WatchEvent } from 'rxkube';
import { fakeListWatch, listPage, podFixture } from 'rxkube/testing';
import { phaseReporter } from './phaseReporter.js';

const pod = (name: string, rv: string, phase: string, labels?: Record<string, string>): V1Pod =>
  podFixture({ name, namespace: 'shop', resourceVersion: rv, phase, labels });
const modified = (object: V1Pod): WatchEvent<V1Pod> => ({ type: 'MODIFIED', object });
const added = (object: V1Pod): WatchEvent<V1Pod> => ({ type: 'ADDED', object });
const deleted = (object: V1Pod): WatchEvent<V1Pod> => ({ type: 'DELETED', object });
const expired: WatchEvent<V1Pod> = {
  type: 'ERROR',
  object: {
    kind: 'Status',
    status: 'Failure',
    reason: 'Expired',
    code: 410,
    message: 'too old resource version',
  },
};

describe('phaseReporter (a handler, marble-tested with rxkube/testing)', () => {
  it('reports phase transitions, new pods and deletions; ignores label-only changes', () => {
    new TestScheduler((actual, expected) => expect(actual).toEqual(expected)).run(
      ({ cold, expectObservable }) => {
        const lw = fakeListWatch<V1Pod>({
          // frame 1: the list; then the watch, whose frames count from its subscription (frame 1).
          lists: [cold('-(p|)', { p: listPage([pod('web-0', '1', 'Pending')], '1') })],
          watches: [
            cold('--r--l--a--d', {
              r: modified(pod('web-0', '2', 'Running')),
              l: modified(pod('web-0', '3', 'Running', { canary: 'true' })), // labels only: no report
              a: added(pod('web-1', '4', 'Pending')),
              d: deleted(pod('web-0', '5', 'Running')),
            }),
          ],
        });
        const inf = informer(lw, { reflector: { random: () => 0 } });
        const reports = new Subject<string>();
        inf.addEventHandler(phaseReporter((line) => reports.next(line)));
        inf.start();
        asyncScheduler.schedule(() => {
          void inf.stop();
          reports.complete();
        }, 20);

        expectObservable(reports).toBe('---r-----a--d-------|', {
          r: 'web-0: Pending -> Running',
          a: 'web-1: new, Pending',
          d: 'web-0: deleted',
        });
      },
    );
  });

  it('reports a deletion missed while the watch was down, from the relist', () => {
    new TestScheduler((actual, expected) => expect(actual).toEqual(expected)).run(
      ({ cold, expectObservable }) => {
        const lw = fakeListWatch<V1Pod>({
          lists: [
            cold('-(p|)', { p: listPage([pod('web-0', '1', 'Running'), pod('web-1', '2', 'Running')], '2') }),
            // After the 410 the relist no longer has web-1: it was deleted while we were not watching.
            cold('-(p|)', { p: listPage([pod('web-0', '1', 'Running')], '9') }),
          ],
          watches: [cold('---e', { e: expired })],
        });
        // No jitter and a 100 ms backoff, so that the relist happens at a known virtual time.
        const inf = informer(lw, {
          reflector: { random: () => 0, backoff: { initialMs: 100, capMs: 100, jitter: 0 } },
        });
        const reports = new Subject<string>();
        inf.addEventHandler(phaseReporter((line) => reports.next(line)));
        inf.start();
        asyncScheduler.schedule(() => {
          void inf.stop();
          reports.complete();
        }, 500);

        // The watch fails at 4 ms (410), the backoff waits 100 ms, the relist answers at 105 ms.
        expectObservable(reports).toBe('105ms t 394ms |', { t: 'web-1: deleted (while disconnected)' });
      },
    );
  });
});
