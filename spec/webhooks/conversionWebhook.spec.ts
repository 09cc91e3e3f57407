// Conversion webhooks as pure functions: a ConversionReview in, one out; hub and pairs, kube's
// metadata rules, and a review failed whole.
import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import { conversionWebhook } from '../../lib/webhooks/conversionWebhook.js';
import type { ConversionReview } from '../../lib/webhooks/conversionReview.js';
import { BadReviewError, WebhookHandlerError } from '../../lib/webhooks/webhookErrors.js';
import { backups } from './support.js';

interface BackupV1 extends KubeObject { spec?: { schedule?: string; keepDays?: number } }
interface BackupV1alpha1 extends KubeObject { spec?: { cron?: string } }
interface BackupV2 extends KubeObject { spec?: { when?: { cron?: string }; keep?: string } }

const alpha = (name: string, cron: string): BackupV1alpha1 => ({
  apiVersion: 'example.com/v1alpha1',
  kind: 'Backup',
  metadata: { name, namespace: 'shop', uid: `uid-${name}`, resourceVersion: '12', generation: 3, labels: { team: 'storage' } },
  spec: { cron },
});
const conversion = (desiredAPIVersion: string, objects: KubeObject[], apiVersion = 'apiextensions.k8s.io/v1'): ConversionReview => ({
  apiVersion,
  kind: 'ConversionReview',
  request: { uid: 'c0ffee', desiredAPIVersion, objects },
});

const hubbed = conversionWebhook({
  resource: backups,
  hub: 'v1',
  spokes: {
    v1alpha1: {
      toHub: (o: BackupV1alpha1): BackupV1 => ({ ...o, spec: { schedule: o.spec?.cron, keepDays: 7 } }),
      fromHub: (h: BackupV1): BackupV1alpha1 => ({ ...h, spec: { cron: h.spec?.schedule } }),
    },
    v2: {
      toHub: (o: BackupV2): BackupV1 => ({ ...o, spec: { schedule: o.spec?.when?.cron, keepDays: Number(o.spec?.keep?.replace('d', '')) } }),
      fromHub: (h: BackupV1): BackupV2 => ({ ...h, spec: { when: { cron: h.spec?.schedule }, keep: `${h.spec?.keepDays}d` } }),
    },
  },
});

describe('conversionWebhook through a hub', () => {
  it('converts every object, sets apiVersion, keeps metadata, echoes the uid, answers in the request version', async () => {
    const answer = await hubbed.review(conversion('example.com/v1', [alpha('a', '0 1 * * *'), alpha('b', '0 2 * * *')], 'apiextensions.k8s.io/v1beta1'));
    expect(answer).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1beta1',
      kind: 'ConversionReview',
      response: {
        uid: 'c0ffee',
        result: { status: 'Success' },
        convertedObjects: ['a', 'b'].map((n, i) => ({
          apiVersion: 'example.com/v1',
          kind: 'Backup',
          metadata: { name: n, namespace: 'shop', uid: `uid-${n}`, resourceVersion: '12', generation: 3, labels: { team: 'storage' } },
          spec: { schedule: `0 ${i + 1} * * *`, keepDays: 7 },
        })),
      },
    });
  });

  it('converts spoke to spoke through the hub, and hub to spoke; an object already in the desired version is returned as it is', async () => {
    const v2 = await hubbed.review(conversion('example.com/v2', [alpha('a', '@daily')]));
    expect(v2.response?.convertedObjects[0]).toMatchObject({ apiVersion: 'example.com/v2', spec: { when: { cron: '@daily' }, keep: '7d' } });
    const back = await hubbed.review(conversion('example.com/v1alpha1', [{ ...alpha('a', 'x'), apiVersion: 'example.com/v1', spec: { schedule: '@hourly' } } as KubeObject, alpha('b', 'same')]));
    expect(back.response?.convertedObjects).toEqual([
      expect.objectContaining({ apiVersion: 'example.com/v1alpha1', spec: { cron: '@hourly' } }),
      alpha('b', 'same'),
    ]);
  });

  it("kube's metadata rules: only labels and annotations may change; a changed name, namespace or uid fails the whole review", async () => {
    const w = conversionWebhook({
      resource: backups,
      hub: 'v1',
      spokes: {
        v1alpha1: {
          toHub: (o: BackupV1alpha1): BackupV1 => ({
            ...o,
            spec: { schedule: o.spec?.cron },
            metadata: { ...o.metadata, name: o.metadata?.name === 'rename' ? 'renamed' : o.metadata?.name, labels: { converted: 'yes' }, resourceVersion: '999', finalizers: ['x'] },
          }),
          fromHub: (h: BackupV1): BackupV1alpha1 => ({ ...h, spec: { cron: h.spec?.schedule } }),
        },
      },
    });
    const kept = await w.review(conversion('example.com/v1', [alpha('a', 'x')]));
    expect(kept.response?.convertedObjects[0].metadata).toEqual({ name: 'a', namespace: 'shop', uid: 'uid-a', resourceVersion: '12', generation: 3, labels: { converted: 'yes' } });
    const renamed = await w.review(conversion('example.com/v1', [alpha('a', 'x'), alpha('rename', 'y')]));
    expect(renamed.response).toEqual({ uid: 'c0ffee', convertedObjects: [], result: { status: 'Failure', message: 'objects[1]: must have the same name: rename != renamed' } });
  });

  it('a converter that throws fails the whole review naming the object (reported on errors$); a missing route too', async () => {
    const w = conversionWebhook({
      resource: backups,
      hub: 'v1',
      spokes: {
        v1alpha1: {
          toHub: (o: BackupV1alpha1): BackupV1 => {
            if (!o.spec?.cron) throw new Error('spec.cron is empty');
            return { ...o, spec: { schedule: o.spec.cron } };
          },
          fromHub: (h: BackupV1): BackupV1alpha1 => ({ ...h, spec: { cron: h.spec?.schedule } }),
        },
      },
    });
    const errors: unknown[] = [];
    w.errors$.subscribe((e) => errors.push(e));
    const failed = await w.review(conversion('example.com/v1', [alpha('a', 'x'), alpha('b', '')]));
    expect(failed.response).toEqual({
      uid: 'c0ffee',
      convertedObjects: [],
      result: { status: 'Failure', message: 'objects[1] (shop/b) from example.com/v1alpha1 to example.com/v1: spec.cron is empty' },
    });
    expect(errors).toEqual([expect.any(WebhookHandlerError)]);
    const noRoute = await w.review(conversion('example.com/v3', [alpha('a', 'x')]));
    expect(noRoute.response?.result).toEqual({ status: 'Failure', message: 'no conversion of Backup from example.com/v1alpha1 to example.com/v3' });
    const otherGroup = await w.review(conversion('apps/v1', [alpha('a', 'x')]));
    expect(otherGroup.response?.result.message).toBe('desiredAPIVersion "apps/v1" is not a version of example.com: this webhook converts Backup');
    const otherKind = await w.review(conversion('example.com/v1', [{ ...alpha('a', 'x'), kind: 'Restore' }]));
    expect(otherKind.response?.result.message).toBe('objects[0] has kind "Restore"; this webhook converts Backup');
    expect(errors).toHaveLength(1);
  });

  it('rejects what is not a ConversionReview with BadReviewError (400)', async () => {
    const e = await hubbed.review({ apiVersion: 'apiextensions.k8s.io/v2', kind: 'ConversionReview' } as ConversionReview).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BadReviewError);
    expect((e as Error).message).toBe('unknown ConversionReview version "apiextensions.k8s.io/v2": this webhook answers apiextensions.k8s.io/v1 and apiextensions.k8s.io/v1beta1');
    const noObjects = await hubbed.review({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'u', desiredAPIVersion: 'example.com/v1' } } as ConversionReview).catch((x: unknown) => x);
    expect((noObjects as Error).message).toBe('the ConversionReview request has no objects list');
  });
});

describe('conversionWebhook per version pair', () => {
  it('uses convert[from][to], async converters included, and fails a pair it does not have', async () => {
    const w = conversionWebhook({
      resource: backups,
      convert: {
        v1alpha1: { v1: async (o: BackupV1alpha1): Promise<BackupV1> => ({ ...o, spec: { schedule: o.spec?.cron } }) },
      },
    });
    const up = await w.review(conversion('example.com/v1', [alpha('a', '@weekly')]));
    expect(up.response?.convertedObjects[0]).toMatchObject({ apiVersion: 'example.com/v1', spec: { schedule: '@weekly' } });
    const down = await w.review(conversion('example.com/v1alpha1', [{ ...alpha('a', 'x'), apiVersion: 'example.com/v1' }]));
    expect(down.response?.result).toEqual({ status: 'Failure', message: 'no conversion of Backup from example.com/v1 to example.com/v1alpha1' });
    expect(w.path).toBe('/convert');
    expect(w.crdName).toBe('backups.example.com');
  });
});
