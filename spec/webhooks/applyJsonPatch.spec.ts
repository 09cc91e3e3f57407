// The JSON Patch check of mutations: RFC 6902 applied copy on write, and failures named.
import { describe, expect, it } from '@jest/globals';
import { applyJsonPatch, jsonEqual } from '../../lib/webhooks/applyJsonPatch.js';

describe('applyJsonPatch', () => {
  it('applies add, remove, replace, move, copy and test without modifying the document, sharing what it did not touch', () => {
    const doc = { a: { b: [1, 2, 3] }, untouched: { deep: { x: 1 } }, m: 'v' };
    const out = applyJsonPatch(doc, [
      { op: 'add', path: '/a/b/1', value: 9 },
      { op: 'remove', path: '/a/b/0' },
      { op: 'replace', path: '/m', value: 'w' },
      { op: 'copy', from: '/m', path: '/c' },
      { op: 'move', from: '/c', path: '/a/moved' },
      { op: 'test', path: '/a/b', value: [9, 2, 3] },
      { op: 'add', path: '/a/b/-', value: 4 },
    ]) as typeof doc & { a: { moved: string } };
    expect(out).toEqual({ a: { b: [9, 2, 3, 4], moved: 'w' }, untouched: { deep: { x: 1 } }, m: 'w' });
    expect(doc).toEqual({ a: { b: [1, 2, 3] }, untouched: { deep: { x: 1 } }, m: 'v' });
    expect(out.untouched).toBe(doc.untouched);
  });

  it('names the operation that fails', () => {
    expect(() => applyJsonPatch({ a: 1 }, [{ op: 'remove', path: '/b' }])).toThrow('operation 0 (remove /b): no such member: "b"');
    expect(() => applyJsonPatch({ a: [] }, [{ op: 'add', path: '/a/2', value: 1 }])).toThrow('operation 0 (add /a/2): index 2 is out of bounds (length 0)');
    expect(() => applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }])).toThrow('operation 0 (test /a): test failed');
  });

  it('keeps a __proto__ key a member, never the prototype', () => {
    const doc = JSON.parse('{"data":{"__proto__":"x"}}') as { data: object };
    const out = applyJsonPatch(doc, [{ op: 'replace', path: '/data/__proto__', value: 'y' }]) as { data: object };
    expect(Object.getPrototypeOf(out.data)).toBe(Object.prototype);
    expect(jsonEqual(out, JSON.parse('{"data":{"__proto__":"y"}}'))).toBe(true);
  });
});
