import { describe, expect, it } from '@jest/globals';
import { controller } from '../../lib/controller/controller.js';
import { ConfigError } from '../../lib/configError.js';
import { changePriority, controllerOwnerKey, owned, watch } from '../../lib/controller/triggerSource.js';
import { addNotification, updateNotification } from '../../lib/informer/notification.js';
import { LOW_PRIORITY } from '../../lib/workqueue/workQueue.js';
import { HeldKeys, added, dep, modified, ownerRef, pod, recordingReconcile, scriptedInformer, testScheduler } from './support.js';

const deploymentKind = { apiVersion: 'apps/v1', kind: 'Deployment' };

describe('controller triggers', () => {
  it('controllerOwnerKey: the controller owner of the right group and kind only', () => {
    expect(controllerOwnerKey(pod('p', '1', [ownerRef('web')]), deploymentKind)).toBe('ns/web');
    expect(controllerOwnerKey(pod('p', '1', [ownerRef('web', false)]), deploymentKind)).toBeUndefined();
    expect(controllerOwnerKey(pod('p', '1', [ownerRef('web', true, 'ReplicaSet')]), deploymentKind)).toBeUndefined();
    expect(controllerOwnerKey(pod('p', '1', [ownerRef('web', true, 'Deployment', 'extensions/v1beta1')]), deploymentKind)).toBeUndefined();
    // Only the group is compared, not the version.
    expect(controllerOwnerKey(pod('p', '1', [ownerRef('web', true, 'Deployment', 'apps/v2')]), deploymentKind)).toBe('ns/web');
    expect(controllerOwnerKey(pod('p', '1', [ownerRef('node1', true, 'Node', 'v1')]), { apiVersion: 'v1', kind: 'Node', namespaced: false })).toBe('node1');
  });

  it('changePriority: initial list and unchanged resyncs low, live changes 0', () => {
    expect(changePriority(addNotification(dep('a', '1'), true))).toBe(LOW_PRIORITY);
    expect(changePriority(addNotification(dep('a', '1'), false))).toBe(0);
    expect(changePriority(updateNotification(dep('a', '1'), dep('a', '1')))).toBe(LOW_PRIORITY);
    expect(changePriority(updateNotification(dep('a', '1'), dep('a', '2')))).toBe(0);
  });

  it('owns: a change of an owned pod enqueues its controller owner; other owners and kinds do not', () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    const { log, reconcile } = recordingReconcile(ts, held, { holdMs: 1 });
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('web', '1'), dep('db', '1'), dep('other', '1')]);
      const pods = scriptedInformer(ts, [pod('p1', '1', [ownerRef('web')])], '10ms a 4ms b 4ms c 4ms d', {
        a: modified(pod('p1', '2', [ownerRef('web')])),
        b: added(pod('p2', '3', [ownerRef('other', false)])),
        c: added(pod('p3', '4', [ownerRef('other', true, 'ReplicaSet')])),
        // The owner changed from web to db: both are enqueued.
        d: modified(pod('p1', '5', [ownerRef('db')])),
      });
      const ctl = controller({ for: deps, forKind: deploymentKind, owns: [pods], reconcile, scheduler: ts, concurrency: 3 });
      ctl.start();
      ts.schedule(() => {
        void ctl.stop();
        void deps.stop();
        void pods.stop();
      }, 100);
    });
    const after = log.filter((e) => Number(e.split('@')[1]) > 5);
    expect(after.sort()).toEqual(['ns/db@30', 'ns/web@15', 'ns/web@30']);
    expect(held.violations).toEqual([]);
  });

  it('watches: a user mapping from an object to keys, with a predicate', () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    const { log, reconcile } = recordingReconcile(ts, held, { holdMs: 1 });
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('web', '1'), dep('db', '1')]);
      const configs = scriptedInformer(ts, [], '10ms a 4ms b', {
        a: added({ ...pod('cfg', '2'), metadata: { ...pod('cfg', '2').metadata, labels: { app: 'db' } } }),
        b: added({ ...pod('skip', '3'), metadata: { ...pod('skip', '3').metadata, labels: { ignore: 'yes' } } }),
      });
      const ctl = controller({
        for: deps,
        reconcile,
        scheduler: ts,
        watches: [
          watch(configs, (cm) => (cm.metadata.labels?.app ? [`ns/${cm.metadata.labels.app}`] : ['ns/web']), {
            predicate: (n) => n.type !== 'add' || n.object.metadata.labels?.ignore !== 'yes',
          }),
        ],
      });
      ctl.start();
      ts.schedule(() => {
        void ctl.stop();
        void deps.stop();
        void configs.stop();
      }, 100);
    });
    expect(log.filter((e) => Number(e.split('@')[1]) > 10)).toEqual(['ns/db@15']);
  });

  it('owns without forKind, or a concurrency below 1, is a ConfigError', () => {
    const ts = testScheduler();
    ts.run(() => {
      const deps = scriptedInformer(ts, []);
      const pods = scriptedInformer(ts, []);
      expect(() => controller({ for: deps, owns: [owned(pods)], reconcile: () => undefined })).toThrow(ConfigError);
      expect(() => controller({ for: deps, concurrency: 0, reconcile: () => undefined })).toThrow(/concurrency must be/);
    });
  });

  it('a missing or wrong `for` or `reconcile` (plain JavaScript) is a ConfigError when made, not a TypeError at start', () => {
    const ts = testScheduler();
    ts.run(() => {
      const deps = scriptedInformer(ts, []);
      const make = (options: unknown) => () => controller(options as Parameters<typeof controller>[0]);
      expect(make({ reconcile: () => undefined })).toThrow(/options.for must be the informer of the primary objects/);
      expect(make({ for: { getByKey: () => undefined }, reconcile: () => undefined })).toThrow(ConfigError);
      expect(make({ for: deps })).toThrow(/options.reconcile must be a function/);
      expect(make(undefined)).toThrow(ConfigError);
    });
  });
});
