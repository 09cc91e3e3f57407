import { failure, StatusError } from '../status.js';
import type { JsonObject } from '../resources.js';
import type { AdmissionAttributes, AdmissionPlugin } from './attributes.js';

// kube-apiserver's ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount): a Pod
// created without a ServiceAccount runs as `default`; a named one must exist; and unless automount
// is turned off (on the Pod, else on its ServiceAccount) the Pod gets the projected token volume
// `kube-api-access-<5>` (token, the cluster CA from `kube-root-ca.crt`, the namespace) mounted
// read-only in every container and init container. Mirror pods (static pods) are left alone.
// kube retries the lookup of `default` for a while, as the controller that makes it may not have
// yet: here a missing `default` is never refused.

export const DEFAULT_SERVICE_ACCOUNT = 'default';
const TOKEN_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const MIRROR = 'kubernetes.io/config.mirror';
// apimachinery's rand.String alphabet (no vowels, no confusable digits).
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * What the plugin reads of the server: a ServiceAccount, and random numbers for the volume's name.
 *
 * @example
 * ```ts
 * const source: ServiceAccountSource = { serviceAccount: () => ({ metadata: { name: 'default' } }), random: Math.random };
 * ```
 */
export interface ServiceAccountSource {
  serviceAccount(namespace: string, name: string): JsonObject | undefined;
  random(): number;
}

type Container = { volumeMounts?: Array<{ name?: string; readOnly?: boolean; mountPath?: string }> };
type PodSpec = {
  serviceAccountName?: string;
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  volumes?: JsonObject[];
  containers?: Container[];
  initContainers?: Container[];
};

const isPod = (a: AdmissionAttributes): boolean => a.resource.group === '' && a.resource.resource === 'pods' && a.subResource === '';

/**
 * The ServiceAccount plugin, mutating Pod creates as kube's does.
 *
 * @example
 * ```ts
 * const chain = new AdmissionChain([serviceAccountAdmission({ serviceAccount: (ns, n) => lookup(ns, n), random: rng.next })]);
 * ```
 */
export function serviceAccountAdmission(source: ServiceAccountSource): AdmissionPlugin {
  return {
    name: 'ServiceAccount',
    operations: ['CREATE'],
    handles: isPod,
    admit: (a) => {
      const pod = a.object;
      if (!pod) return;
      const meta = (pod.metadata ?? {}) as { name?: string; annotations?: { [k: string]: string } };
      if (meta.annotations?.[MIRROR] !== undefined) return;
      const spec = (pod.spec ??= {}) as PodSpec;
      const name = spec.serviceAccountName || spec.serviceAccount || DEFAULT_SERVICE_ACCOUNT;
      spec.serviceAccountName = name;
      spec.serviceAccount = name; // the deprecated field, as v1 serves it
      const account = source.serviceAccount(a.namespace, name);
      if (!account && name !== DEFAULT_SERVICE_ACCOUNT) {
        const podName = a.name || meta.name || '';
        const why = `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`;
        throw new StatusError(failure(403, 'Forbidden', podName ? `pods "${podName}" is forbidden: ${why}` : `pods is forbidden: ${why}`, { ...(podName ? { name: podName } : {}), kind: 'pods' }));
      }
      const automount = spec.automountServiceAccountToken ?? (account?.automountServiceAccountToken as boolean | undefined) ?? true;
      if (automount) mountToken(spec, source.random);
    },
  };
}

/** The projected token volume, mounted where a container has nothing at the token path yet. */
function mountToken(spec: PodSpec, random: () => number): void {
  const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
  const needing = containers.filter((c) => !(c.volumeMounts ?? []).some((m) => m.mountPath === TOKEN_PATH));
  if (needing.length === 0) return;
  const volumeName = `kube-api-access-${Array.from({ length: 5 }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('')}`;
  spec.volumes = [
    ...(spec.volumes ?? []),
    {
      name: volumeName,
      projected: {
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
        defaultMode: 420,
      },
    },
  ];
  for (const c of needing) c.volumeMounts = [...(c.volumeMounts ?? []), { name: volumeName, readOnly: true, mountPath: TOKEN_PATH }];
}
