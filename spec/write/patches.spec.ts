import { describe, expect, it } from '@jest/globals';
import { jsonPatch, mergePatch, toJsonPointer, type KubeObject } from '../../lib/index.js';
import { seededRandom, type JsonObject } from '../../lib/testing/index.js';
import { applyPatch } from '../../lib/testing/fakeApiServer/patch.js';

interface Cm extends KubeObject {
  data?: { [k: string]: string };
  list?: string[];
}

const cm = (): Cm => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'a', namespace: 'ns', resourceVersion: '7', labels: { keep: '1', drop: '1' } },
  data: { x: '1' },
  list: ['a', 'b', 'c'],
});

describe('toJsonPointer', () => {
  it('escapes ~ as ~0 and / as ~1, in that order', () => {
    expect(toJsonPointer(['metadata', 'annotations', 'a/b~c', 0])).toBe('/metadata/annotations/a~1b~0c/0');
    expect(toJsonPointer(['~1'])).toBe('/~01');
    expect(toJsonPointer([])).toBe('');
  });
});

describe('jsonPatch', () => {
  it('gives the RFC 6902 operations of the recipe, led by a test of the resourceVersion', () => {
    const obj = cm();
    const ops = jsonPatch(obj, (d) => {
      d.metadata!.labels!['app.kubernetes.io/name'] = 'web';
      delete d.metadata!.labels!.drop;
      d.data!.x = '2';
    });
    expect(ops[0]).toEqual({ op: 'test', path: '/metadata/resourceVersion', value: '7' });
    expect(ops.slice(1)).toHaveLength(3); // in immer's order
    expect(ops).toEqual(
      expect.arrayContaining([
        { op: 'add', path: '/metadata/labels/app.kubernetes.io~1name', value: 'web' },
        { op: 'remove', path: '/metadata/labels/drop' },
        { op: 'replace', path: '/data/x', value: '2' },
      ]),
    );
    expect(obj).toEqual(cm()); // untouched
    expect(Object.isFrozen(obj.metadata)).toBe(false); // and not frozen behind the caller's back
  });

  it('works on frozen objects (what informers hand out) and on arrays', () => {
    const obj = Object.freeze({ ...cm(), list: Object.freeze(['a', 'b', 'c']) }) as Cm;
    const ops = jsonPatch(obj, (d) => {
      d.list!.push('d');
    });
    expect(ops).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '7' },
      { op: 'add', path: '/list/3', value: 'd' },
    ]);
  });

  it('is empty when the recipe changes nothing; without a test when asked or when there is no resourceVersion', () => {
    expect(jsonPatch(cm(), () => {})).toEqual([]);
    expect(jsonPatch(cm(), (d) => void (d.data!.y = '1'), { resourceVersion: false })).toEqual([{ op: 'add', path: '/data/y', value: '1' }]);
    const noRv: Cm = { metadata: { name: 'a' } };
    expect(jsonPatch(noRv, (d) => void (d.data = {}))).toEqual([{ op: 'add', path: '/data', value: {} }]);
  });
});

describe('mergePatch', () => {
  it('gives the RFC 7386 body: changes, null for removals, whole arrays, and the resourceVersion', () => {
    const obj = cm();
    const body = mergePatch(obj, (d) => {
      delete d.metadata!.labels!.drop;
      d.metadata!.labels!.ready = '3';
      d.list!.splice(1, 1);
    });
    expect(body).toEqual({ metadata: { labels: { drop: null, ready: '3' }, resourceVersion: '7' }, list: ['a', 'c'] });
    expect(obj).toEqual(cm());
  });

  it('is undefined when nothing changed; leaves the resourceVersion out when asked', () => {
    expect(mergePatch(cm(), (d) => void (d.data!.x = '1'))).toBeUndefined();
    expect(mergePatch(cm(), (d) => void delete d.data, { resourceVersion: false })).toEqual({ data: null });
  });
});

describe('client-node model instances', () => {
  class NetworkPolicyPeer {
    _from?: string;
    port?: number = undefined;
  }
  it('are drafted as plain copies with wire field names', () => {
    const peer = Object.assign(new NetworkPolicyPeer(), { _from: 'a' });
    const obj = { metadata: { name: 'np', resourceVersion: '1' }, spec: { peer } };
    expect(jsonPatch(obj, (d) => void (d.spec.peer = { ...d.spec.peer, port: 80 }), { resourceVersion: false })).toEqual([
      { op: 'replace', path: '/spec/peer', value: { from: 'a', port: 80 } },
    ]);
  });
});

describe('patches applied by the fake API server give what the recipe made', () => {
  /** A random recipe: the same choices for the same `r` sequence. */
  const randomRecipe = (r: () => number) => (d: Cm) => {
    const steps = 1 + Math.floor(r() * 4);
    for (let i = 0; i < steps; i++) {
      const what = ['push', 'splice', 'set', 'delete', 'label', 'unlabel', 'pop', 'unshift'][Math.floor(r() * 8)];
      if (what === 'push') d.list!.push(`x${i}`);
      else if (what === 'splice' && d.list!.length) d.list!.splice(Math.floor(r() * d.list!.length), 1);
      else if (what === 'pop') d.list!.pop();
      else if (what === 'unshift') d.list!.unshift(`u${i}`);
      else if (what === 'set') d.data![`k${i}`] = String(r());
      else if (what === 'delete') delete d.data!.x;
      else if (what === 'label') d.metadata!.labels![`a/b~${i}`] = 'v';
      else if (what === 'unlabel') delete d.metadata!.labels!.keep;
    }
  };
  const plain = (o: unknown) => JSON.parse(JSON.stringify(o)) as JsonObject;

  // Each patch, applied by the server's RFC 6902 and RFC 7386 code, must give the recipe's result.
  it('holds for 300 seeded random recipes over objects and arrays', () => {
    const rng = seededRandom(7).next;
    for (let run = 0; run < 300; run++) {
      const base: Cm = { ...cm(), list: ['a', 'b', 'c', 'd'].slice(0, Math.floor(rng() * 5)) };
      const seed = Math.floor(rng() * 1e9);
      const expected = structuredClone(base);
      randomRecipe(seededRandom(seed).next)(expected);
      const ops = jsonPatch(base, (d) => randomRecipe(seededRandom(seed).next)(d as Cm));
      const body = mergePatch(base, (d) => randomRecipe(seededRandom(seed).next)(d as Cm));
      expect([run, plain(applyPatch('json', plain(base), ops))]).toEqual([run, plain(expected)]);
      expect([run, plain(body ? applyPatch('merge', plain(base), body) : base)]).toEqual([run, plain(expected)]);
    }
  });
});
