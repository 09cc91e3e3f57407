import { describe, expect, it } from '@jest/globals';
import { jsonPatch, mergePatch, toJsonPointer, type KubeObject } from '../../lib/index.js';
import { seededRandom, type JsonObject } from '../../lib/testing/index.js';
import { applyPatch } from '../../lib/testing/fakeApiServer/registry/patch.js';
import { PatchRecipeError } from '../../lib/write/patchRecipeError.js';

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

describe('recipes must be synchronous', () => {
  it('a recipe returning a promise is refused with a PatchRecipeError, its rejection handled', () => {
    const asyncRecipe = async (d: Cm) => {
      d.data!.x = '2';
      await null;
      d.data!.y = '3'; // on a revoked draft: rejects (handled)
    };
    expect(() => jsonPatch(cm(), asyncRecipe)).toThrow(PatchRecipeError);
    expect(() => mergePatch(cm(), asyncRecipe)).toThrow(expect.objectContaining({ code: 'PatchRecipeError', message: expect.stringMatching(/recipes must be synchronous/) }));
    // A thenable gets a rejection handler before the throw: nothing is left unhandled.
    const handlers: unknown[] = [];
    const thenable = { then: (_ok: unknown, fail: unknown) => void handlers.push(fail) };
    expect(() => jsonPatch(cm(), () => thenable as unknown as void)).toThrow(PatchRecipeError);
    expect(handlers).toEqual([expect.any(Function)]);
  });
});

describe('a __proto__ key (valid in ConfigMap data; JSON.parse makes it an own property) is a key', () => {
  const withProto = () =>
    JSON.parse('{"metadata":{"name":"a","resourceVersion":"7"},"data":{"__proto__":"p","x":"1"},"spec":{"__proto__":{"a":1},"b":1}}') as Cm & {
      spec: { [k: string]: unknown };
    };

  it('is kept, changed and removed by jsonPatch and mergePatch', () => {
    const base = withProto();
    const grown = jsonPatch(base, (d) => void (d.data = { ...d.data, y: '2' }), { resourceVersion: false });
    expect(JSON.stringify(grown)).toBe('[{"op":"replace","path":"/data","value":{"__proto__":"p","x":"1","y":"2"}}]');
    const dropped = jsonPatch(base, (d) => void delete d.data!['__proto__'], { resourceVersion: false });
    expect(JSON.stringify(dropped)).toBe('[{"op":"remove","path":"/data/__proto__"}]');
    expect(JSON.stringify(mergePatch(base, (d) => void delete d.data!['__proto__'], { resourceVersion: false }))).toBe('{"data":{"__proto__":null}}');
    expect(JSON.stringify(mergePatch(base, (d) => void (d.spec.b = 2), { resourceVersion: false }))).toBe('{"spec":{"b":2}}');
    const specGrown = mergePatch(base, (d) => void (d.spec = { ...d.spec, c: 3 }), { resourceVersion: false });
    expect(JSON.stringify(specGrown)).toBe('{"spec":{"c":3}}');
    // Applied by the fake API server, each gives what the recipe made.
    const doc = JSON.parse(JSON.stringify(base)) as JsonObject;
    expect(JSON.stringify(applyPatch('json', doc, grown))).toBe(
      '{"metadata":{"name":"a","resourceVersion":"7"},"data":{"__proto__":"p","x":"1","y":"2"},"spec":{"__proto__":{"a":1},"b":1}}',
    );
    expect(Object.keys(base.data!)).toEqual(['__proto__', 'x']); // untouched
  });
});

describe('undefined in a recipe: add and replace always carry a value', () => {
  it('a field set to undefined is removed (or not added); array holes and undefined elements are null', () => {
    const ops = jsonPatch(
      cm(),
      (d) => {
        d.metadata!.labels!.keep = undefined as unknown as string;
        d.data!.fresh = undefined as unknown as string;
        d.data!.nested = { a: undefined, b: [undefined, 'x'] } as unknown as string;
        delete d.list![1];
        d.list![5] = 'z';
      },
      { resourceVersion: false },
    );
    expect(ops).toStrictEqual([
      { op: 'replace', path: '/list/1', value: null },
      { op: 'add', path: '/list/3', value: null },
      { op: 'add', path: '/list/4', value: null },
      { op: 'add', path: '/list/5', value: 'z' },
      { op: 'add', path: '/data/nested', value: { b: [null, 'x'] } },
      { op: 'remove', path: '/metadata/labels/keep' },
    ]);
    expect(applyPatch('json', JSON.parse(JSON.stringify(cm())) as JsonObject, ops)).toEqual({
      ...cm(),
      metadata: { ...cm().metadata, labels: { drop: '1' } },
      data: { x: '1', nested: { b: [null, 'x'] } },
      list: ['a', null, 'c', null, null, 'z'],
    });
    const grown = jsonPatch(cm(), (d) => void (d.list!.length = 5), { resourceVersion: false });
    expect(grown).toStrictEqual([
      { op: 'add', path: '/list/3', value: null },
      { op: 'add', path: '/list/4', value: null },
    ]);
    for (const op of [...ops, ...grown]) if (op.op !== 'remove') expect(op).toHaveProperty('value');
  });

  it('mergePatch agrees: null removes the field, array holes are null', () => {
    const body = mergePatch(cm(), (d) => {
      d.metadata!.labels!.keep = undefined as unknown as string;
      d.data!.fresh = undefined as unknown as string;
      delete d.list![1];
      d.list![4] = 'z';
    });
    expect(body).toStrictEqual({ metadata: { labels: { keep: null }, resourceVersion: '7' }, list: ['a', null, 'c', null, 'z'] });
  });
});
