// Shared fixtures of the rxkube/webhooks specs (not a spec file).
import type { AdmissionRequest, AdmissionReview } from '../../lib/webhooks/admissionReview.js';
import { webhookResource } from '../../lib/webhooks/webhookResource.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';

export interface Backup extends KubeObject {
  spec?: { schedule?: string; retention?: number; targets?: string[] };
}

export const backups = webhookResource<Backup>({ group: 'example.com', version: 'v1', plural: 'backups', kind: 'Backup', namespaced: true });

export const backup = (spec: Backup['spec'], name = 'nightly'): Backup => ({
  apiVersion: 'example.com/v1',
  kind: 'Backup',
  metadata: { name, namespace: 'shop', uid: 'u-1', resourceVersion: '7', labels: { team: 'storage' } },
  spec,
});

export function request(object: Backup | null, overrides: Partial<AdmissionRequest<Backup>> = {}): AdmissionRequest<Backup> {
  return {
    uid: '705ab4f5-6393-11e8-b7cc-42010a800002',
    kind: { group: 'example.com', version: 'v1', kind: 'Backup' },
    resource: { group: 'example.com', version: 'v1', resource: 'backups' },
    requestKind: { group: 'example.com', version: 'v1', kind: 'Backup' },
    requestResource: { group: 'example.com', version: 'v1', resource: 'backups' },
    name: object?.metadata?.name ?? 'nightly',
    namespace: 'shop',
    operation: 'CREATE',
    userInfo: { username: 'alice', groups: ['system:authenticated'] },
    object,
    oldObject: null,
    dryRun: false,
    options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
    ...overrides,
  };
}

export const review = (req: AdmissionRequest<Backup>, apiVersion = 'admission.k8s.io/v1'): AdmissionReview<Backup> => ({ apiVersion, kind: 'AdmissionReview', request: req });

/** The JSON Patch a response carries, decoded. */
export const decodePatch = (patch: string | undefined): unknown => (patch === undefined ? undefined : JSON.parse(Buffer.from(patch, 'base64').toString('utf8')));
