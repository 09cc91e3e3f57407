import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import { KeyError, type RxkubeError } from '../../lib/errors.js';
import { informer } from '../../lib/informer/informer.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { UnexpectedObjectError } from '../../lib/reflector/unexpectedObjectError.js';
import { runOnVirtualTime } from './runReflector.js';
import { bookmark, page, pod, scriptedListWatch, type Pod } from './scriptedListWatch.js';

// Whatever the server sends, the reflector goes on, and its resource version only ever moves to a
// valid one from the server (issue 12 "Wrong today", issue 15).

type E = WatchEvent<Pod>;
const added = (p: Pod): E => ({ type: 'ADDED', object: p });
const noName = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'ns', resourceVersion: '4' } } as Pod;

describe('input from the server that the reflector must survive', () => {
  it('watch-list: an initial object without metadata.name is passed on in the Replace (for the FIFO to report), and nothing throws', () => {
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [],
          [
            () =>
              cold('a-b-c-d', {
                a: added(pod('a', '3')),
                b: added(noName),
                c: bookmark('10', true),
                d: added(pod('e', '11')),
              }),
          ],
        ),
      5_000,
      { useWatchList: true },
    );
    expect(r.events.map((e) => e.event)).toEqual([
      { type: 'replace', items: [pod('a', '3'), noName], resourceVersion: '10' },
      { type: 'add', object: pod('e', '11') },
    ]);
    expect(r.errors).toEqual([]);
  });

  it('watch-list in an informer: a typed KeyError on errors$, the object skipped, the informer synced and going on', () => {
    const ts = new TestScheduler((a, e) => expect(a).toEqual(e));
    const errors: RxkubeError[] = [];
    let keys: ReadonlyArray<string> = [];
    let synced = false;
    ts.run(({ cold }) => {
      const lw = scriptedListWatch<Pod>(
        ts,
        [],
        [
          () =>
            cold('a-b-c-d', {
              a: added(pod('a', '3')),
              b: added(noName),
              c: bookmark('10', true),
              d: added(pod('e', '11')),
            }),
        ],
      );
      const i = informer<Pod>(lw, { scheduler: ts, watchList: true, reflector: { random: () => 0 } });
      i.errors$.subscribe((e) => errors.push(e));
      i.synced$.subscribe((s) => (synced = s));
      i.start();
      ts.schedule(() => {
        keys = i.listKeys();
        void i.stop();
      }, 1_000);
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(KeyError);
    expect((errors[0] as KeyError).object).toEqual(noName);
    expect(synced).toBe(true);
    expect([...keys].sort()).toEqual(['ns/a', 'ns/e']);
  });

  it('a BOOKMARK without metadata does not move the RV to "": the re-watch starts from the last valid RV', () => {
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [() => cold('(a|)', { a: page([], '10') })],
          [
            () =>
              cold('a-b-c 2s |', {
                a: added(pod('a', '11')),
                b: { type: 'BOOKMARK', object: { apiVersion: 'v1', kind: 'Pod' } as Pod },
                c: { type: 'BOOKMARK', object: { apiVersion: 'v1', kind: 'Pod', metadata: {} } as Pod },
              }),
          ],
        ),
      5_000,
    );
    expect(r.lw.watchCalls().map((c) => c.options.resourceVersion)).toEqual(['10', '11']);
    expect(r.resourceVersions).toEqual(['10', '11']);
    // a bookmark without an RV says nothing, and is not passed on
    expect(r.events.map((e) => e.event.type)).toEqual(['replace', 'add']);
  });

  it('an event object without metadata is passed on, but does not move the RV to ""', () => {
    const bare = { apiVersion: 'v1', kind: 'Pod' } as Pod;
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [() => cold('(a|)', { a: page([], '10') })],
          [
            () =>
              cold('a-b-c 2s |', {
                a: added(pod('a', '11')),
                b: { type: 'MODIFIED', object: bare },
                c: { type: 'DELETED', object: bare },
              }),
          ],
        ),
      5_000,
    );
    expect(r.events.map((e) => e.event.type)).toEqual(['replace', 'add', 'update', 'delete']);
    expect(r.resourceVersions).toEqual(['10', '11']);
    expect(r.lw.watchCalls().map((c) => c.options.resourceVersion)).toEqual(['10', '11']);
  });

  it('a watch ERROR event whose object is not a Status says what came (kind and field names, no values) and relists', () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data: { password: 'aHVudGVyMg==' },
    };
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [() => cold('(a|)', { a: page([], '10') }), () => cold('(a|)', { a: page([], '20') })],
          [
            () => cold('a', { a: { type: 'ERROR', object: secret } as unknown as E }),
            () => cold('a', { a: { type: 'ERROR', object: { foo: 1 } } as unknown as E }),
          ],
        ),
      5_000,
    );
    const [first, second] = r.errors.map((e) => e.error);
    expect(first.cause).toBeInstanceOf(UnexpectedObjectError);
    expect(first.message).toContain(
      'a watch ERROR event carried a v1 Secret, not a Status (fields: apiVersion, kind, metadata, data)',
    );
    expect(first.message).not.toContain('aHVudGVyMg==');
    expect(first.message).not.toContain('0 :');
    expect(first.action).toBe('relist');
    expect(second.message).toContain('carried an object without a kind, not a Status (fields: foo)');
    expect(second.action).toBe('relist');
    expect(r.lw.listCalls().map((c) => c.options.resourceVersion)).toEqual(['0', '10', '20']);
  });
});
