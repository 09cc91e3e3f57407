import { describe, expect, it } from '@jest/globals';
import { of, Subject, throwError } from 'rxjs';
import { awaitHandlerResult } from '../../lib/informer/handlerResult.js';

type Settled = Array<[unknown, boolean]>;

describe('awaitHandlerResult', () => {
  it('settles an Observable result once, when it completes, and ignores its values', () => {
    const settled: Settled = [];
    const result = new Subject<number>();
    const pending = awaitHandlerResult(result, (e, failed) => settled.push([e, failed]));
    result.next(1);
    expect(settled).toEqual([]);
    expect(pending.inflight?.closed).toBe(false);
    result.complete();
    expect(settled).toEqual([[undefined, false]]);
  });

  it('settles synchronously, with nothing pending, an Observable that ends during subscribe', () => {
    const settled: Settled = [];
    const pending = awaitHandlerResult(of(1, 2), (e, failed) => settled.push([e, failed]));
    expect(settled).toEqual([[undefined, false]]);
    expect(pending).toEqual({});
    const boom = new Error('boom');
    awaitHandlerResult(
      throwError(() => boom),
      (e, failed) => settled.push([e, failed]),
    );
    expect(settled[1]).toEqual([boom, true]);
  });

  it('never settles an Observable result whose subscription was cancelled', () => {
    const settled: Settled = [];
    const result = new Subject<number>();
    awaitHandlerResult(result, (e, failed) => settled.push([e, failed])).inflight?.unsubscribe();
    result.complete();
    expect(settled).toEqual([]);
  });

  it('settles a Promise result after it resolves or rejects, and resolves `done` either way', async () => {
    const settled: Settled = [];
    const ok = awaitHandlerResult(Promise.resolve(1), (e, failed) => settled.push([e, failed]));
    expect(settled).toEqual([]);
    await ok.done;
    const boom = new Error('boom');
    await awaitHandlerResult(Promise.reject(boom), (e, failed) => settled.push([e, failed])).done;
    expect(settled).toEqual([
      [undefined, false],
      [boom, true],
    ]);
  });

  it('settles at once a result that is not asynchronous, and fails a thenable whose then throws', () => {
    const settled: Settled = [];
    const loose = 42 as unknown as PromiseLike<unknown>;
    expect(awaitHandlerResult(loose, (e, failed) => settled.push([e, failed]))).toEqual({});
    const bad = new Error('then');
    const thenable = {
      then(): never {
        throw bad;
      },
    } as PromiseLike<unknown>;
    awaitHandlerResult(thenable, (e, failed) => settled.push([e, failed]));
    expect(settled).toEqual([
      [undefined, false],
      [bad, true],
    ]);
  });
});
