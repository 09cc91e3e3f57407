import { failure, StatusError } from '../status.js';
import type { AdmissionAttributes, AdmissionPlugin } from './attributes.js';

// kube-apiserver's NamespaceLifecycle admission plugin (AS admission/plugin/namespace/lifecycle;
// PIPELINE.md §10): the first plugin of the chain. The namespace controller's part (emptying a
// Terminating namespace) is in controllers/namespaceController.ts.

const IMMORTAL = new Set(['default', 'kube-system', 'kube-public']);

/**
 * Where a namespace stands, as the plugin asks it.
 *
 * @example
 * ```ts
 * const lookup = (ns: string): NamespacePhase => (ns === 'default' ? 'Active' : 'Missing');
 * ```
 */
export type NamespacePhase = 'Active' | 'Terminating' | 'Missing';

/**
 * How the plugin reaches the server: the phase of a namespace, and (with `autoCreateNamespaces`)
 * a way to create a missing one instead of refusing.
 *
 * @example
 * ```ts
 * const source: NamespaceSource = { phaseOf: () => 'Active' };
 * ```
 */
export interface NamespaceSource {
  phaseOf(namespace: string): NamespacePhase;
  /** Creates the namespace (the fake's `autoCreateNamespaces: true`); absent: kube's 404. */
  readonly create?: (namespace: string) => void;
}

const isNamespace = (a: AdmissionAttributes): boolean => a.resource.group === '' && a.resource.resource === 'namespaces';

/**
 * The 403 for a create in a Terminating namespace, with cause `NamespaceTerminating`.
 *
 * @example
 * ```ts
 * throw namespaceTerminating({ plural: 'configmaps', group: '' }, 'ns1', 'x');
 * ```
 */
export function namespaceTerminating(resource: { readonly plural: string; readonly group: string }, namespace: string, name: string): StatusError {
  const qr = resource.group ? `${resource.plural}.${resource.group}` : resource.plural;
  return new StatusError(
    failure(403, 'Forbidden', `${qr} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, {
      name,
      ...(resource.group ? { group: resource.group } : {}),
      kind: resource.plural,
      causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
    }),
  );
}

/**
 * The NamespaceLifecycle plugin: deleting `default`, `kube-system` or `kube-public` is a 403; a
 * namespaced create into a missing namespace is kube's 404 `namespaces "x" not found` (before any
 * validation: an invalid body there is a 404 too), into a Terminating one a 403. Namespaces
 * themselves, cluster-scoped objects, updates, deletes and access reviews pass.
 *
 * @example
 * ```ts
 * const chain = new AdmissionChain([namespaceLifecycle({ phaseOf: (ns) => phases.get(ns) ?? 'Missing' })]);
 * ```
 */
export function namespaceLifecycle(source: NamespaceSource): AdmissionPlugin {
  return {
    name: 'NamespaceLifecycle',
    operations: ['CREATE', 'DELETE'],
    admit: (a) => {
      if (a.operation === 'DELETE' && isNamespace(a) && IMMORTAL.has(a.name)) {
        throw new StatusError(failure(403, 'Forbidden', `namespaces "${a.name}" is forbidden: this namespace may not be deleted`, { name: a.name, kind: 'namespaces' }));
      }
      if (a.operation !== 'CREATE' || a.namespace === '' || isNamespace(a)) return;
      if (a.resource.group === 'authorization.k8s.io' && a.resource.resource === 'localsubjectaccessreviews') return;
      const phase = source.phaseOf(a.namespace);
      if (phase === 'Missing') {
        if (!source.create) throw new StatusError(failure(404, 'NotFound', `namespaces "${a.namespace}" not found`, { name: a.namespace, kind: 'namespaces' }));
        if (!a.dryRun) source.create(a.namespace);
        return;
      }
      if (phase === 'Terminating') {
        const meta = (a.object?.metadata ?? {}) as { name?: unknown; generateName?: unknown };
        const name = a.name || (typeof meta.generateName === 'string' ? meta.generateName : '') || 'Unknown';
        throw namespaceTerminating({ plural: a.resource.resource, group: a.resource.group }, a.namespace, name);
      }
    },
  };
}
