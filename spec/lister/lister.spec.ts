import { describe, expect, it } from '@jest/globals';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { createStore, LabelSelectorParseError, lister, NamespaceIndex, parseLabelSelector, type Store } from '../../lib/index.js';
import { podFixture } from '../../lib/testing/index.js';

const pods = [
  podFixture({ namespace: 'shop', name: 'web-0', labels: { app: 'web', env: 'prod', tier: 'frontend' } }),
  podFixture({ namespace: 'shop', name: 'web-1', labels: { app: 'web', env: 'staging' } }),
  podFixture({ namespace: 'shop', name: 'db-0', labels: { app: 'db', env: 'prod' } }),
  podFixture({ namespace: 'blog', name: 'web-0', labels: { app: 'web', env: 'dev' } }),
  podFixture({ namespace: 'blog', name: 'bare' }),
];
const names = (objs: ReadonlyArray<V1Pod>) =>
  objs.map((p) => `${p.metadata!.namespace}/${p.metadata!.name}`).sort();
const snapshot = () => createStore<V1Pod>().replace(pods, '10');

describe('lister (L4)', () => {
  it.each([
    ['', ['blog/bare', 'blog/web-0', 'shop/db-0', 'shop/web-0', 'shop/web-1']],
    ['app=web', ['blog/web-0', 'shop/web-0', 'shop/web-1']],
    ['app==db', ['shop/db-0']],
    ['app!=web', ['blog/bare', 'shop/db-0']],
    ['env in (prod,staging)', ['shop/db-0', 'shop/web-0', 'shop/web-1']],
    ['env notin (prod,staging)', ['blog/bare', 'blog/web-0']],
    ['tier', ['shop/web-0']],
    ['!env', ['blog/bare']],
    ['app=web,env!=dev', ['shop/web-0', 'shop/web-1']],
    ['app=nothing', []],
  ])('L4: list(%j) on a store snapshot', (selector, expected) => {
    expect(names(lister(snapshot()).list(selector))).toEqual(expected);
  });

  it('L4: an empty selector (undefined, "" or a parsed empty one) lists everything', () => {
    const l = lister(snapshot());
    expect(l.list()).toHaveLength(5);
    expect(l.list('')).toHaveLength(5);
    expect(l.list(parseLabelSelector(''))).toHaveLength(5);
  });

  it('L4: a selector that matches nothing returns nothing', () => {
    expect(lister(snapshot()).list('app=web,app=db')).toEqual([]);
    expect(lister(snapshot()).byNamespace('nowhere').list()).toEqual([]);
  });

  it('L4: byNamespace lists through the namespace index and gets by name', () => {
    const store = snapshot();
    const reads: string[] = [];
    const spy = {
      list: () => store.list(),
      getByKey: (key: string) => store.getByKey(key),
      byIndex: (index: string, value: string) => {
        reads.push(`${index}=${value}`);
        return store.byIndex(index, value);
      },
    };
    const shop = lister(spy).byNamespace('shop');
    expect(names(shop.list('app=web'))).toEqual(['shop/web-0', 'shop/web-1']);
    expect(names(shop.list())).toEqual(['shop/db-0', 'shop/web-0', 'shop/web-1']);
    expect(reads).toEqual([`${NamespaceIndex}=shop`, `${NamespaceIndex}=shop`]);
    expect(shop.get('web-0')?.metadata?.labels?.env).toBe('prod');
    expect(lister(spy).byNamespace('blog').get('web-0')?.metadata?.labels?.env).toBe('dev');
    expect(shop.get('bare')).toBeUndefined();
  });

  it("L4: byNamespace('') lists every namespace, as client-go's Pods(\"\").List does", () => {
    const all = ['blog/bare', 'blog/web-0', 'shop/db-0', 'shop/web-0', 'shop/web-1'];
    expect(names(lister(snapshot()).byNamespace('').list())).toEqual(all);
    expect(names(lister(snapshot()).byNamespace('').list('app=web'))).toEqual([
      'blog/web-0',
      'shop/web-0',
      'shop/web-1',
    ]);
    const unindexed = createStore<V1Pod>({ namespaceIndex: false }).replace(pods, '10');
    expect(names(lister(unindexed).byNamespace('').list())).toEqual(all);
  });

  it('L4: byNamespace still works on a store without the namespace index (scans)', () => {
    const store = createStore<V1Pod>({ namespaceIndex: false }).replace(pods, '10');
    expect(names(lister(store).byNamespace('blog').list())).toEqual(['blog/bare', 'blog/web-0']);
  });

  it('L4: get(key) takes namespace/name for namespaced objects and the name for cluster-scoped ones', () => {
    expect(lister(snapshot()).get('shop/db-0')?.metadata?.name).toBe('db-0');
    expect(lister(snapshot()).get('db-0')).toBeUndefined();
    const nodes = createStore<V1Node>().add({ metadata: { name: 'node-1', labels: { zone: 'a' } } });
    expect(lister(nodes).get('node-1')?.metadata?.labels).toEqual({ zone: 'a' });
    expect(lister(nodes).list('zone=a')).toHaveLength(1);
  });

  it('reads the current snapshot on every call when given a function', () => {
    let current: Store<V1Pod> = createStore<V1Pod>();
    const l = lister(() => current);
    expect(l.list('app=web')).toEqual([]);
    current = snapshot();
    expect(l.list('app=web')).toHaveLength(3);
    current = current.delete(pods[0]);
    expect(l.byNamespace('shop').list('app=web')).toHaveLength(1);
  });

  it('hands out frozen results and the store’s frozen objects (freeze: true)', () => {
    const result = lister(createStore<V1Pod>({ freeze: true }).replace(structuredClone(pods), '10')).list('app=web');
    expect(Object.isFrozen(result)).toBe(true);
    expect(Object.isFrozen(result[0])).toBe(true);
  });

  it('throws a typed error for a malformed selector', () => {
    expect(() => lister(snapshot()).list('app in (web')).toThrow(LabelSelectorParseError);
  });
});
