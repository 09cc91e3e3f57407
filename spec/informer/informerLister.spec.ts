import { describe, expect, it } from '@jest/globals';
import { informer, type Informer } from '../../lib/index.js';
import * as rxkube from '../../lib/index.js';
import { fakeListWatch, listPage } from '../../lib/testing/index.js';
import { added, at, fast, pod, stopAt, testScheduler, type Pod } from './support.js';

// One name for the informer (issue 26): every informer has its lister; the former names
// (SharedInformer, withLister) are gone (issue 37).
describe('informer.lister()', () => {
  it('reads the latest store through the same lister: by selector, by key, by namespace', () => {
    const seen: Array<[string, ReadonlyArray<string>, string | undefined]> = [];
    const names = (pods: ReadonlyArray<Pod>) => pods.map((p) => `${p.metadata.namespace}/${p.metadata.name}`).sort();
    const web = { metadata: { name: 'web', namespace: 'shop', resourceVersion: '2', labels: { app: 'web' } } };
    testScheduler().run(({ cold }) => {
      const inf = informer(
        fakeListWatch<Pod>({
          lists: [cold('5ms (p|)', { p: listPage([pod('a', '1'), pod('db', '1', { metadata: { name: 'db', namespace: 'shop', resourceVersion: '1', labels: { app: 'db' } } })], '1') })],
          watches: [cold('10ms w', { w: added(web) })],
        }),
        { ...fast, logger: false },
      );
      const l = inf.lister();
      inf.start();
      const look = (t: string) => seen.push([t, names(l.list('app')), inf.lister().byNamespace('shop').get('web')?.metadata.resourceVersion]);
      at(1, () => look('before the list'));
      at(6, () => look('listed'));
      at(20, () => look('watched'));
      at(21, () => expect(inf.lister()).toBe(l));
      stopAt(inf, 30);
    });
    expect(seen).toEqual([
      ['before the list', [], undefined],
      ['listed', ['shop/db'], undefined],
      ['watched', ['shop/db', 'shop/web'], '2'],
    ]);
  });

  it('one name: withLister and reflect (reflector(...).outputs$) are not exported', () => {
    const inf: Informer<Pod> = informer(fakeListWatch<Pod>({ lists: [] }), { logger: false });
    expect(inf.lister().list()).toEqual([]);
    expect(Object.keys(rxkube).filter((name) => ['withLister', 'reflect', 'SharedInformer'].includes(name))).toEqual([]);
  });
});
