// The example's webhooks tested as plain functions (no server), then the whole example: a
// controller and its webhooks in one process against the fake API server.
import { describe, expect, it } from '@jest/globals';
import type { AdmissionReview } from 'rxkube/webhooks';
import { convertBackup, defaultBackup, validateBackup, type Backup } from './backupWebhooks.js';
import { runWebhooksExample } from './main.js';

const review = (object: Backup): AdmissionReview => ({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid: 'u1',
    kind: { group: 'example.com', version: 'v1', kind: 'Backup' },
    resource: { group: 'example.com', version: 'v1', resource: 'backups' },
    operation: 'CREATE',
    userInfo: { username: 'alice' },
    object,
  },
});
const backup = (spec: Backup['spec']): Backup => ({ apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'b', namespace: 'shop' }, spec });

describe('the Backup webhooks as functions', () => {
  it('validate: a schedule is required, retention at most a year, a warning for a short one', async () => {
    expect((await validateBackup.review(review(backup({})))).response?.status).toEqual({ code: 422, reason: 'Invalid', message: 'spec.schedule is required (a cron expression)' });
    expect((await validateBackup.review(review(backup({ schedule: '@daily', retentionDays: 400 })))).response?.status?.message).toBe('spec.retentionDays 400 is more than a year');
    expect((await validateBackup.review(review(backup({ schedule: '@daily', retentionDays: 1 })))).response).toMatchObject({ allowed: true, warnings: ['spec.retentionDays 1: a failed night leaves no backup'] });
  });

  it('default: retention 7 and a label, as a JSON Patch', async () => {
    const { response } = await defaultBackup.review(review(backup({ schedule: '@daily' })));
    expect(JSON.parse(Buffer.from(response!.patch!, 'base64').toString())).toEqual([
      { op: 'add', path: '/metadata/labels', value: { 'example.com/defaulted': 'true' } },
      { op: 'add', path: '/spec/retentionDays', value: 7 },
    ]);
  });

  it('convert: v1alpha1 cron/keep to v1 schedule/retentionDays and back', async () => {
    const old = { apiVersion: 'example.com/v1alpha1', kind: 'Backup', metadata: { name: 'b', namespace: 'shop', uid: 'x' }, spec: { cron: '0 2 * * *', keep: '14d' } };
    const up = await convertBackup.review({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'c', desiredAPIVersion: 'example.com/v1', objects: [old] } });
    expect(up.response?.convertedObjects).toEqual([{ ...old, apiVersion: 'example.com/v1', spec: { schedule: '0 2 * * *', retentionDays: 14 } }]);
    const down = await convertBackup.review({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'c', desiredAPIVersion: 'example.com/v1alpha1', objects: up.response!.convertedObjects } });
    expect(down.response?.convertedObjects).toEqual([old]);
  });
});

describe('webhooks example', () => {
  it('serves the webhooks over HTTPS beside a controller, with the configurations applied and their caBundle current', async () => {
    const lines: string[] = [];
    const result = await runWebhooksExample((l) => lines.push(l));
    expect(result.denial).toBe('admission webhook "backups.validate.example.com" denied the request: spec.schedule is required (a cron expression)');
    expect(result.defaultedLabels).toEqual({ 'example.com/defaulted': 'true' });
    expect(result.caBundleWritten).toBe(true);
    expect(result.plan).toEqual({ schedule: '0 2 * * *', retentionDays: '14' });
    expect(lines).toContain('admission webhook "backups.validate.example.com" denied the request: spec.schedule is required (a cron expression)');
  });
});
