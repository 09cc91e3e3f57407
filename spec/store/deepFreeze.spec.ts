import { describe, expect, it } from '@jest/globals';
import { deepFreeze } from '../../lib/store/deepFreeze.js';

describe('deepFreeze', () => {
  it('S6: freezes nested objects and arrays; assigning, pushing or deleting then throws in strict mode', () => {
    const obj = deepFreeze({
      metadata: { name: 'a', labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }] }] },
    });
    expect(Object.isFrozen(obj.spec.containers)).toBe(true);
    expect(Object.isFrozen(obj.spec.containers[0].ports[0])).toBe(true);
    expect(() => {
      obj.metadata.labels.app = 'db';
    }).toThrow(TypeError);
    expect(() => {
      obj.spec.containers[0].ports[0].containerPort = 81;
    }).toThrow(TypeError);
    expect(() => obj.spec.containers.push({ name: 'd', ports: [] })).toThrow(TypeError);
    expect(() => {
      delete (obj.metadata as { name?: string }).name;
    }).toThrow(TypeError);
  });

  it('returns its argument, passes primitives and null through, and survives cycles and very deep nesting', () => {
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze(null)).toBeNull();
    const cyclic: { self?: unknown; child: { parent?: unknown } } = { child: {} };
    cyclic.self = cyclic;
    cyclic.child.parent = cyclic;
    expect(deepFreeze(cyclic)).toBe(cyclic);
    expect(Object.isFrozen(cyclic.child)).toBe(true);
    // 100,000 levels would overflow a recursive walk.
    const root: { next?: unknown } = {};
    let cur = root;
    for (let i = 0; i < 100_000; i++) {
      const next: { next?: unknown } = {};
      cur.next = next;
      cur = next;
    }
    deepFreeze(root);
    expect(Object.isFrozen(cur)).toBe(true);
  });

  it('does not walk into an already-frozen subtree, and leaves typed arrays alone', () => {
    const frozenShallow = Object.freeze({ inner: { mutable: true } });
    const obj = deepFreeze({ shared: frozenShallow, bytes: new Uint8Array([1, 2]) });
    expect(Object.isFrozen(obj)).toBe(true);
    // The documented contract: a frozen object is taken as deeply frozen already.
    expect(Object.isFrozen(frozenShallow.inner)).toBe(false);
    expect(Object.isFrozen(obj.bytes)).toBe(false);
  });
});
