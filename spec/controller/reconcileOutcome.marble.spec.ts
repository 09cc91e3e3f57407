// runReconcile: whatever a reconcile returns (a value, a throw, a Promise, an Observable), one
// outcome, at the same moment as before it was written without an operator chain: a value or a
// throw at once, an Observable on its last value (success when it completes empty), a Promise on
// its settling; a timeout unsubscribes an Observable reconcile and aborts its signal.
import { describe, expect, it } from '@jest/globals';
import { NEVER, firstValueFrom, type Observable } from 'rxjs';
import { InvalidReconcileResultError, ReconcileTimeoutError } from '../../lib/controller/controllerErrors.js';
import { runReconcile, type ReconcileOutcome } from '../../lib/controller/reconcileOutcome.js';
import type { ReconcileContext, Reconciler, ReconcileResult } from '../../lib/controller/reconciler.js';
import { ApiStatusError } from '../../lib/errors.js';
import { testScheduler } from './support.js';

type Obj = { metadata: { name: string } };
const ctx = { object: undefined, priority: 0, retries: 0, reconcileId: 'r-1' } as unknown as ReconcileContext<Obj>;
const noAbort = { abort: () => undefined };

function outcomes(reconcile: Reconciler<Obj>, timeoutMs?: number, abort = noAbort): Observable<ReconcileOutcome> {
  const ts = testScheduler();
  return runReconcile(reconcile, 'ns/a', ctx, abort, { timeoutMs, scheduler: ts, priority: 3 });
}

describe('runReconcile', () => {
  it('a value or a throw settles at once; an invalid result is an error outcome', () => {
    const ts = testScheduler();
    ts.run(({ expectObservable }) => {
      const run = (r: Reconciler<Obj>) => runReconcile(r, 'ns/a', ctx, noAbort, { scheduler: ts, priority: 3 });
      expectObservable(run(() => undefined)).toBe('(s|)', { s: { result: 'success' } });
      expectObservable(run(() => ({ requeueAfter: 50 }))).toBe('(r|)', { r: { result: 'requeue_after', ms: 50, priority: 3 } });
      expectObservable(run(() => ({ requeue: true, priority: 7 }))).toBe('(q|)', { q: { result: 'requeue', priority: 7 } });
      const boom = new Error('boom');
      expectObservable(
        run(() => {
          throw boom;
        }),
      ).toBe('(e|)', { e: { result: 'error', error: boom, terminal: false, priority: 3 } });
    });
    const invalid: ReconcileOutcome[] = [];
    outcomes(() => ({ requeueAfter: Number.NaN })).subscribe((o) => invalid.push(o));
    expect(invalid).toHaveLength(1);
    expect(invalid[0]).toMatchObject({ result: 'error', terminal: false });
    expect(invalid[0].result === 'error' && invalid[0].error).toBeInstanceOf(InvalidReconcileResultError);
  });

  it('an Observable reconcile: its last value when it completes, success when empty, an error outcome when it errors', () => {
    const ts = testScheduler();
    ts.run(({ cold, expectObservable, expectSubscriptions }) => {
      const run = (r$: Observable<ReconcileResult | void>) => runReconcile(() => r$, 'ns/a', ctx, noAbort, { scheduler: ts, priority: 3 });
      const values$ = cold<ReconcileResult>('-a-b|', { a: { requeueAfter: 5 }, b: { requeue: true } });
      expectObservable(run(values$)).toBe('----(q|)', { q: { result: 'requeue', priority: 3 } });
      expectSubscriptions(values$.subscriptions).toBe('^---!');
      expectObservable(run(cold('--|'))).toBe('--(s|)', { s: { result: 'success' } });
      const failure = new Error('stream failed');
      expectObservable(run(cold('-#', undefined, failure))).toBe('-(e|)', { e: { result: 'error', error: failure, terminal: false, priority: 3 } });
    });
  });

  it('a timeout unsubscribes an Observable reconcile, aborts its signal, and is an error outcome', () => {
    const ts = testScheduler();
    let aborted = 0;
    ts.run(({ cold, expectObservable, expectSubscriptions }) => {
      const slow$ = cold<ReconcileResult>('50ms a|', { a: {} });
      const run$ = runReconcile(() => slow$, 'ns/a', ctx, { abort: () => void aborted++ }, { timeoutMs: 20, scheduler: ts, priority: 3 });
      expectObservable(run$).toBe('20ms (t|)', {
        t: { result: 'error', error: new ReconcileTimeoutError('ns/a', 20), terminal: false, priority: 3 },
      });
      expectSubscriptions(slow$.subscriptions).toBe('^ 19ms !');
    });
    expect(aborted).toBe(1);
  });

  it('a Promise reconcile settles on its then: a value, or a rejection with Retry-After taken from the error', async () => {
    await expect(firstValueFrom(outcomes(async () => ({ requeueAfter: 9 })))).resolves.toEqual({ result: 'requeue_after', ms: 9, priority: 3 });
    const tooMany = new ApiStatusError({ code: 429, reason: 'TooManyRequests' }, { retryAfterSeconds: 3 });
    await expect(firstValueFrom(outcomes(() => Promise.reject(tooMany)))).resolves.toEqual({
      result: 'error',
      error: tooMany,
      terminal: false,
      priority: 3,
      retryAfterMs: 3000,
    });
    // Nothing is emitted before the Promise settles.
    const early: ReconcileOutcome[] = [];
    outcomes(() => NEVER).subscribe((o) => early.push(o));
    expect(early).toEqual([]);
  });
});
