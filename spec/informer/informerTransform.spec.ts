import { describe, expect, it } from '@jest/globals';
import { InformerStateError } from '../../lib/errors.js';
import { informer } from '../../lib/informer/informer.js';
import type { Notification } from '../../lib/informer/notification.js';
import { stripManagedFields } from '../../lib/informer/stripManagedFields.js';
import { fakeListWatch, listPage, recordNotifications } from '../../lib/testing/marbles.js';
import { at, fast, pod, stopAt, testScheduler, type Pod } from './support.js';

// The transform (I9) and freezing (mutation detection).
describe('informer: transform (I9) and frozen objects', () => {
  it('I9: handlers and the store get transformed objects; stripManagedFields drops managedFields', () => {
    testScheduler().run(({ cold }) => {
      const withFields = pod('a', '1', {});
      withFields.metadata.managedFields = [{ manager: 'kubectl' }];
      const lw = fakeListWatch<Pod>({ lists: [cold('-(p|)', { p: listPage([withFields], '1') })] });
      const inf = informer(lw, fast);
      inf.setTransform(stripManagedFields);
      const rec = recordNotifications(inf);
      inf.start();
      stopAt(inf, 10);
      at(9, () => {
        const n = rec.notifications[0] as Extract<Notification<Pod>, { type: 'add' }>;
        expect(n.object.metadata).toEqual({ name: 'a', namespace: 'ns', resourceVersion: '1' });
        expect(inf.getByKey('ns/a')).toBe(n.object);
        expect(withFields.metadata.managedFields).toHaveLength(1);
      });
    });
  });

  it('I9: setting a transform after start is an InformerStateError', () => {
    const inf = informer(fakeListWatch<Pod>({}));
    inf.start();
    expect(() => inf.setTransform((o) => o)).toThrow(InformerStateError);
    void inf.stop();
  });

  it('with freeze: true, objects handed to handlers are deeply frozen (mutation detection)', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1', { spec: { nodeName: 'n1' } })], '1') })],
      });
      const inf = informer(lw, { ...fast, freeze: true });
      const rec = recordNotifications(inf);
      inf.start();
      stopAt(inf, 10);
      at(9, () => {
        const n = rec.notifications[0] as Extract<Notification<Pod>, { type: 'add' }>;
        expect(() => {
          (n.object.spec as { nodeName: string }).nodeName = 'n2';
        }).toThrow(TypeError);
        expect(Object.isFrozen(inf.getByKey('ns/a'))).toBe(true);
      });
    });
  });

  it('by default (no freeze) objects are handed out as the server sent them, not frozen', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1', { spec: { nodeName: 'n1' } })], '1') })],
      });
      const inf = informer(lw, fast);
      const rec = recordNotifications(inf);
      inf.start();
      stopAt(inf, 10);
      at(9, () => {
        const n = rec.notifications[0] as Extract<Notification<Pod>, { type: 'add' }>;
        expect(Object.isFrozen(n.object)).toBe(false);
        expect(Object.isFrozen(n.object.spec)).toBe(false);
        expect(inf.getByKey('ns/a')).toBe(n.object);
      });
    });
  });
});
