// The Backup resource's webhooks: a validating one (a schedule is required, retention at most a
// year), a mutating one (default retention, a label), and the v1alpha1 <-> v1 conversion through
// v1 as the hub. Plain functions of a request: tested without a server (backupWebhooks.spec.ts).
import type { KubeObject } from 'rxkube';
import { allowed, conversionWebhook, denied, mutatingWebhook, patched, validatingWebhook, webhookResource } from 'rxkube/webhooks';

/** example.com/v1 Backup: the hub, and the storage version. */
export interface Backup extends KubeObject {
  spec?: { schedule?: string; retentionDays?: number };
}

/** example.com/v1alpha1 Backup: the schedule was `cron`, retention was a string like `7d`. */
export interface BackupV1alpha1 extends KubeObject {
  spec?: { cron?: string; keep?: string };
}

export const backups = webhookResource<Backup>({ group: 'example.com', version: 'v1', plural: 'backups', kind: 'Backup', namespaced: true });

export const validateBackup = validatingWebhook({
  name: 'backups.validate.example.com',
  resource: backups,
  operations: ['CREATE', 'UPDATE'],
  validate: ({ object }) => {
    if (!object?.spec?.schedule) return denied('spec.schedule is required (a cron expression)', { code: 422, reason: 'Invalid' });
    const days = object.spec.retentionDays ?? 7;
    if (days > 365) return denied(`spec.retentionDays ${days} is more than a year`, { code: 422, reason: 'Invalid' });
    return allowed(days < 2 ? { warnings: [`spec.retentionDays ${days}: a failed night leaves no backup`] } : {});
  },
});

export const defaultBackup = mutatingWebhook({
  name: 'backups.default.example.com',
  resource: backups,
  operations: ['CREATE'],
  // Changes on the draft become the JSON Patch: only what changed is in it.
  mutate: ({ object }) =>
    patched((b) => {
      if (object?.spec?.retentionDays === undefined) (b.spec ??= {}).retentionDays = 7;
      ((b.metadata ??= {}).labels ??= {})['example.com/defaulted'] = 'true';
    }),
});

export const convertBackup = conversionWebhook({
  resource: backups,
  hub: 'v1',
  spokes: {
    v1alpha1: {
      toHub: (old: BackupV1alpha1): Backup => ({ ...old, spec: { schedule: old.spec?.cron, retentionDays: old.spec?.keep ? parseInt(old.spec.keep, 10) : undefined } }),
      fromHub: (hub: Backup): BackupV1alpha1 => ({ ...hub, spec: { cron: hub.spec?.schedule, keep: hub.spec?.retentionDays !== undefined ? `${hub.spec.retentionDays}d` : undefined } }),
    },
  },
});

/** Every webhook of the Backup resource, for the server and the configurations. */
export const backupWebhooks = [validateBackup, defaultBackup, convertBackup];
