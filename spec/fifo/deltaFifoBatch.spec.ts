import { describe, expect, it } from '@jest/globals';
import { map, tap, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { KeyError, type RxkubeError } from '../../lib/errors.js';
import { deltaFifoBatch } from '../../lib/fifo/deltaFifoBatch.js';
import type { FifoBatch } from '../../lib/fifo/fifoBatch.js';
import type { FifoQueueOptions } from '../../lib/fifo/fifoQueue.js';
import type { ReflectorBurst } from '../../lib/reflector/reflectorBurst.js';
import type { ReflectorEvent } from '../../lib/reflector/reflectorEvent.js';
import { describeOutput, keyFunc, obj, type TestObj } from './fixtures.js';

type Ev = ReflectorEvent<TestObj>;
type RvObj = TestObj & { metadata?: { resourceVersion?: string } };
const withRv = (name: string, val: number, rv?: string): RvObj => ({
  ...obj(name, val),
  ...(rv === undefined ? {} : { metadata: { resourceVersion: rv } }),
});
const add = (name: string, val: number, rv?: string): Ev => ({ type: 'add', object: withRv(name, val, rv) });
const upd = (name: string, val: number, rv?: string): Ev => ({
  type: 'update',
  object: withRv(name, val, rv),
});
const del = (name: string, val: number, rv?: string): Ev => ({
  type: 'delete',
  object: withRv(name, val, rv),
});
const rep = (rv: string, ...items: TestObj[]): Ev => ({ type: 'replace', items, resourceVersion: rv });
const bookmark = (rv: string): Ev => ({ type: 'bookmark', resourceVersion: rv });

const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const fifo = (options: FifoQueueOptions<TestObj> = {}) => deltaFifoBatch<TestObj>({ keyFunc, ...options });
/** A batch as one string: its pops (`describeOutput`), `@rv`, and `synced`. */
const readable = (o$: Observable<FifoBatch<TestObj>>) =>
  o$.pipe(
    map((b) =>
      [
        ...b.pops.map(describeOutput),
        ...(b.resourceVersion === undefined ? [] : [`@${b.resourceVersion}`]),
        ...(b.synced ? ['synced'] : []),
      ].join(' | '),
    ),
  );

describe('deltaFifoBatch: the FIFO as a scan over bursts (PopBatch)', () => {
  it('F2: a burst coalesces per key and leaves as one batch; the next burst is its own batch', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const bursts = cold<ReflectorBurst<TestObj>>('a-b|', {
        a: [add('foo', 10), add('bar', 1), upd('foo', 12), del('foo', 15)],
        b: [upd('bar', 2)],
      });
      expectObservable(readable(bursts.pipe(fifo()))).toBe('a-b|', {
        a: 'foo: Added 10, Updated 12, Deleted 15 | bar: Added 1 | synced',
        b: 'bar: Updated 2',
      });
    });
  });

  it('F2/F15: in ordered mode the same burst pops every event on its own, in arrival order, still one batch', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const bursts = cold<ReflectorBurst<TestObj>>('a|', {
        a: [add('foo', 10), add('bar', 1), upd('foo', 12)],
      });
      expectObservable(readable(bursts.pipe(fifo({ mode: 'ordered' })))).toBe('a|', {
        a: 'foo: Added 10 | bar: Added 1 | foo: Updated 12 | synced',
      });
    });
  });

  it('F10/F11: a list burst is one batch of initial pops, marked synced after them; later batches are not initial', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const bursts = cold<ReflectorBurst<TestObj>>('a-b|', {
        a: [rep('10', obj('a', 1), obj('b', 1))],
        b: [add('c', 1, '11')],
      });
      expectObservable(readable(bursts.pipe(fifo({ emitDeltaTypeReplaced: true })))).toBe('a-b|', {
        a: 'a*: Replaced 1 | b*: Replaced 1 | @10 | synced',
        b: 'c: Added 1 | @11',
      });
    });
  });

  it('the batch carries the last valid resource version of its burst; missing or empty ones never replace it', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const bursts = cold<ReflectorBurst<TestObj>>('a-b-c-d|', {
        a: [add('a', 1, '2'), upd('a', 2, '3'), add('b', 1)],
        b: [bookmark('7')],
        c: [bookmark(''), upd('a', 3, '')],
        d: [del('a', 3, '9')],
      });
      expectObservable(readable(bursts.pipe(fifo()))).toBe('a-b-c-d|', {
        a: 'a: Added 1, Updated 2 | b: Added 1 | @3 | synced',
        b: '@7',
        c: 'a: Updated 3',
        d: 'a: Deleted 3 | @9', // passed on: the store write drops it if it does not hold 'a' (F3)
      });
    });
  });

  it('a burst that changes nothing emits nothing (a bookmark without a resource version)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const bursts = cold<ReflectorBurst<TestObj>>('a-b|', { a: [add('a', 1)], b: [bookmark('')] });
      expectObservable(readable(bursts.pipe(fifo()))).toBe('a--|', { a: 'a: Added 1 | synced' });
    });
  });

  it('reads no store: a deletion of a key with nothing queued is passed on, and a list marks where the deletions only the store can find go', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const bursts = cold<ReflectorBurst<TestObj>>('a-b|', {
        a: [del('k', 6)],
        b: [add('x', 1), rep('9', obj('a', 1))],
      });
      const described = bursts.pipe(
        fifo(),
        map((batch) => ({
          pops: batch.pops.map(describeOutput),
          relists: batch.relists?.map((m) => `at ${m.at}: ${[...m.listed].join(',')}`),
        })),
      );
      expectObservable(described).toBe('a-b|', {
        a: { pops: ['k: Deleted 6'], relists: undefined },
        // x: queued, not listed -> a tombstone from what is queued; the store's own keys at the mark.
        b: { pops: ['x: Added 1, Deleted dfsu(1)', 'a: Sync 1'], relists: ['at 2: a'] },
      });
    });
  });

  it('each subscription has its own state; a key error travels in the batch and the burst goes on', () => {
    const errors: RxkubeError[] = [];
    testScheduler().run(({ cold, expectObservable }) => {
      const bursts = cold<ReflectorBurst<TestObj>>('a|', {
        a: [add('a', 1), { type: 'add', object: null as unknown as TestObj }, add('b', 1)],
      });
      const out = bursts.pipe(
        fifo({ keyFunc: (o) => o.name }),
        tap((b) => errors.push(...(b.errors ?? []))),
      );
      expectObservable(readable(out)).toBe('a|', { a: 'a: Added 1 | b: Added 1 | synced' });
      expectObservable(readable(out)).toBe('a|', { a: 'a: Added 1 | b: Added 1 | synced' });
    });
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBeInstanceOf(KeyError);
  });
});
