import type { Change } from '../storage/history.js';
import { inBackground } from './inBackground.js';
import type { Registry } from '../registry/store.js';
import type { ResourceTypes } from '../registry/resourceTypes.js';
import type { Storage } from '../storage/storage.js';
import { objectKey, parseStored } from '../storage/storedObject.js';

// Two of kube-controller-manager's controllers that give every namespace its defaults:
// serviceaccounts-controller (the ServiceAccount `default`, made again when deleted) and
// root-ca-cert-publisher (the ConfigMap `kube-root-ca.crt` with the cluster's CA as `ca.crt`, made
// again when deleted, its data put back when changed). A Terminating namespace gets neither.

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';
const MANAGER = { manager: 'kube-controller-manager' };

/**
 * The two controllers as one: `observe` names the namespace a change concerns, `process` makes
 * what is missing there.
 */
export class NamespaceDefaults {
  constructor(
    private readonly storage: Storage,
    private readonly types: ResourceTypes,
    private readonly registry: () => Registry,
    private readonly rootCa: () => string,
  ) {}

  /** The namespace to look at after `c`, if any. */
  observe(c: Change): string | undefined {
    const id = c.resource.id;
    if (id === 'namespaces') return c.type !== 'DELETED' && !c.obj.deleting ? c.obj.name : undefined;
    if (id === 'serviceaccounts') return c.type === 'DELETED' && c.obj.name === 'default' ? c.obj.namespace : undefined;
    if (id === 'configmaps') return c.type !== 'ADDED' && c.obj.name === ROOT_CA_CONFIGMAP ? c.obj.namespace : undefined;
    return undefined;
  }

  /** Makes `namespace`'s ServiceAccount and CA ConfigMap, or puts the CA back. */
  process(namespace: string): void {
    const ns = this.storage.get(this.types.resolve('namespaces'), namespace);
    if (!ns || ns.deleting) return;
    const accounts = this.types.resolve('serviceaccounts');
    if (!this.storage.get(accounts, objectKey(namespace, 'default'))) {
      inBackground(this.registry().create(accounts, namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } }, { owner: MANAGER }));
    }
    const configMaps = this.types.resolve('configmaps');
    const data = { 'ca.crt': this.rootCa() };
    const stored = this.storage.get(configMaps, objectKey(namespace, ROOT_CA_CONFIGMAP));
    if (!stored) {
      const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ROOT_CA_CONFIGMAP, namespace, annotations: { 'kubernetes.io/description': DESCRIPTION } }, data };
      inBackground(this.registry().create(configMaps, namespace, body, { owner: MANAGER }));
      return;
    }
    if (stored.deleting) return;
    const current = parseStored(stored);
    if (JSON.stringify(current.data) === JSON.stringify(data)) return;
    inBackground(this.registry().update(configMaps, namespace, ROOT_CA_CONFIGMAP, { ...current, data }, undefined, { owner: MANAGER }));
  }
}
