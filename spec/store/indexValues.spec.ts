import { describe, expect, it } from '@jest/globals';
import { InvalidIndexerError, InvalidIndexValuesError } from '../../lib/store/indexErrors.js';
import type { IndexFunc, Indexers } from '../../lib/store/indexers.js';
import { createStore } from '../../lib/store/store.js';

interface Obj {
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec: { node?: unknown };
}
const obj = (name: string, node: unknown, rv = '1'): Obj => ({ metadata: { name, namespace: 'ns', resourceVersion: rv }, spec: { node } });
/** An index function as plain JavaScript may write it: whatever `spec.node` holds is returned. */
const loose = (f: (o: Obj) => unknown): IndexFunc<Obj> => f as unknown as IndexFunc<Obj>;

describe('index functions must return an array of strings (client-go: []string)', () => {
  it.each([
    ['undefined', undefined, /returned undefined/],
    ['null', null, /returned null/],
    ['a bare string', 'node-1', /returned the string "node-1" instead of \["node-1"\]/],
    ['a number in the array', [7], /returned an array holding number 7/],
    ['undefined in the array', [undefined], /returned an array holding undefined/],
  ])('%s is an InvalidIndexValuesError on add, and the store is unchanged', (_what, value, message) => {
    const s0 = createStore<Obj>({ indexers: { byNode: loose(() => value) } });
    const add = (): unknown => s0.add(obj('a', 'x'));
    expect(add).toThrow(InvalidIndexValuesError);
    expect(add).toThrow(message);
    expect(s0.size).toBe(0);
    // Before: a bare string was filed character by character, and the object stored.
    expect(s0.listIndexFuncValues('byNode')).toEqual([]);
  });

  it('an update whose new values are invalid keeps the old object under its old values', () => {
    const s1 = createStore<Obj>({ indexers: { byNode: loose((o) => (typeof o.spec.node === 'string' ? [o.spec.node] : o.spec.node)) } }).add(obj('a', 'n1'));
    expect(() => s1.update(obj('a', undefined, '2'))).toThrow(InvalidIndexValuesError);
    let kept = s1;
    expect(() => {
      kept = s1.withMutations((m) => {
        m.update(obj('a', 'n2', '2'));
        m.update(obj('a', 5, '3'));
      });
    }).toThrow(InvalidIndexValuesError);
    expect(kept).toBe(s1);
    expect(s1.getByKey('ns/a')?.metadata.resourceVersion).toBe('1');
    expect(s1.indexKeys('byNode', 'n1')).toEqual(['ns/a']);
  });

  it('a delete whose old values turn out invalid throws and removes nothing (no key left in an index without its object)', () => {
    let broken = false;
    const s1 = createStore<Obj>({ indexers: { byNode: loose((o) => (broken ? undefined : [o.spec.node])) } }).add(obj('a', 'n1'));
    broken = true;
    expect(() => s1.delete(obj('a', 'n1'))).toThrow(InvalidIndexValuesError);
    expect(s1.getByKey('ns/a')).toBeDefined();
    expect(s1.byIndex('byNode', 'n1')).toHaveLength(1);
  });

  it('index() checks the values of the object it is given', () => {
    const s = createStore<Obj>({ indexers: { byNode: loose((o) => o.spec.node) } });
    expect(() => s.index('byNode', obj('a', 'n1'))).toThrow(InvalidIndexValuesError);
  });
});

describe('indexers must be functions', () => {
  it.each([
    ['a number', { bad: 5 }, /indexer "bad" is not a function \(got number 5\)/],
    ['a string', { bad: 'spec.node' }, /indexer "bad" is not a function \(got string spec.node\)/],
  ])('createStore with %s as an indexer throws InvalidIndexerError at once', (_what, indexers, message) => {
    const create = (): unknown => createStore<Obj>({ indexers: indexers as unknown as Indexers<Obj> });
    expect(create).toThrow(InvalidIndexerError);
    expect(create).toThrow(message);
  });

  it('addIndexers(null), or with a non-function, throws InvalidIndexerError and adds nothing, on an empty store too', () => {
    const s = createStore<Obj>();
    expect(() => s.addIndexers(null as unknown as Indexers<Obj>)).toThrow(/indexers must be an object/);
    // Before: accepted on an empty store, a TypeError at the next write.
    expect(() => s.addIndexers({ bad: 'x' } as unknown as Indexers<Obj>)).toThrow(InvalidIndexerError);
    expect(s.indexNames()).toEqual(['namespace']);
  });
});
