import { describe, expect, it } from '@jest/globals';
import type { JsonObject } from '../../lib/testing/index.js';
import { applyPatch } from '../../lib/testing/fakeApiServer/registry/patch.js';
import {
  ControllerOwnerIndex,
  addFinalizer,
  byControllerUid,
  controllerOf,
  controllerOwnerIndexers,
  controllerReference,
  finalizer,
  hasFinalizer,
  isBeingDeleted,
  removeFinalizer,
  selectedBy,
  selectorOf,
  selects,
  type Finalizable,
  type JsonPatchOperation,
  type KubeObject,
} from '../../lib/index.js';

const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-1', namespace: 'shop', uid: 'u-rs' } };
const pod = (labels: { [k: string]: string }, ns = 'shop'): KubeObject => ({
  metadata: {
    name: 'p',
    namespace: ns,
    labels,
    ownerReferences: [
      { apiVersion: 'v1', kind: 'Node', name: 'n', uid: 'u-node' },
      controllerReference(rs),
    ],
  },
});

describe('owners', () => {
  it('controllerOf is the reference marked controller; controllerReference builds one', () => {
    expect(controllerOf(pod({}))).toEqual({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'u-rs', controller: true, blockOwnerDeletion: true });
    expect(controllerOf({ metadata: { name: 'x' } })).toBeUndefined();
    expect(() => controllerReference({ metadata: { name: 'x' } })).toThrow(/apiVersion, kind, metadata.name and metadata.uid/);
  });

  it('the controller-owner index indexes by the controller owner uid only', () => {
    expect(byControllerUid(pod({}))).toEqual(['u-rs']);
    expect(controllerOwnerIndexers[ControllerOwnerIndex](pod({}))).toEqual(['u-rs']);
    expect(byControllerUid({ metadata: {} })).toEqual([]);
  });
});

describe('selectors', () => {
  const deployment = (selector: unknown, ns = 'shop') => ({ metadata: { name: 'd', namespace: ns }, spec: { selector } }) as KubeObject & { spec: { selector: never } };

  it('reads matchLabels and matchExpressions, or a plain map (Services); no selector selects nothing', () => {
    const d = deployment({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] });
    expect(selectorOf(d).toString()).toBe('app=web,tier notin (db)');
    expect(selects(d, pod({ app: 'web', tier: 'front' }))).toBe(true);
    expect(selects(d, pod({ app: 'web', tier: 'db' }))).toBe(false);
    expect(selects(d, pod({ app: 'web' }, 'other'))).toBe(false); // other namespace
    expect(selects(deployment({ app: 'web' }), pod({ app: 'web' }))).toBe(true);
    expect(selects({ metadata: { namespace: 'shop' } }, pod({ app: 'web' }))).toBe(false);
    expect(selects(deployment({}), pod({ app: 'web' }))).toBe(true); // empty structured selector: everything
  });

  it('selectedBy finds the objects that select one, skipping invalid selectors', () => {
    const web = deployment({ matchLabels: { app: 'web' } });
    const db = deployment({ matchLabels: { app: 'db' } });
    const bad = deployment({ matchExpressions: [{ key: 'a', operator: 'Near' }] });
    expect(selectedBy(pod({ app: 'web' }), [web, db, bad])).toEqual([web]);
  });
});

describe('finalizer helpers', () => {
  it('add and remove report whether they changed anything; deletion is the deletionTimestamp', () => {
    const obj: Finalizable = { metadata: { name: 'a' } };
    expect(addFinalizer(obj, 'x/y')).toBe(true);
    expect(addFinalizer(obj, 'x/y')).toBe(false);
    expect(hasFinalizer(obj, 'x/y')).toBe(true);
    expect(removeFinalizer(obj, 'x/y')).toBe(true);
    expect(removeFinalizer(obj, 'x/y')).toBe(false);
    expect(obj.metadata?.finalizers).toEqual([]);
    expect(isBeingDeleted(obj)).toBe(false);
    expect(isBeingDeleted({ metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } })).toBe(true);
  });
});

describe('finalizer helpers on odd input', () => {
  it('removeFinalizer takes every copy; a finalizers field that is not an array holds none (no substring match)', () => {
    const dup: Finalizable = { metadata: { finalizers: ['x/y', 'other/z', 'x/y'] } };
    expect(removeFinalizer(dup, 'x/y')).toBe(true);
    expect(dup.metadata?.finalizers).toEqual(['other/z']);
    const odd = { metadata: { finalizers: 'abc' } } as unknown as Finalizable;
    expect(hasFinalizer(odd, 'b')).toBe(false);
    expect(removeFinalizer(odd, 'b')).toBe(false);
  });
});

describe('finalizer flow', () => {
  it('removes every copy of a duplicated finalizer after cleanup, as controller-runtime does', async () => {
    const object: Finalizable = {
      metadata: { name: 'a', resourceVersion: '3', deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['x/y', 'other/z', 'x/y'] },
    };
    const bodies: JsonPatchOperation[][] = [];
    const result = await finalizer({ name: 'x/y', object, patch: async (_o, body) => void bodies.push(body), reconcile: () => 'cleaned' });
    expect(result).toBe('cleaned');
    expect(bodies).toHaveLength(1);
    const after = applyPatch('json', structuredClone(object) as JsonObject, bodies[0]) as Finalizable;
    expect(after.metadata?.finalizers).toEqual(['other/z']);
  });
});
