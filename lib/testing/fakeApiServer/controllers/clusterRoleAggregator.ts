import type { Change } from '../storage/history.js';
import { clusterRoleAggregation } from '../rbac/aggregation.js';
import type { RbacRole } from '../rbac/rbacObjects.js';
import type { Registry } from '../registry/store.js';
import type { ResourceTypes } from '../registry/resourceTypes.js';
import type { Storage } from '../storage/storage.js';
import { parseStored } from '../storage/storedObject.js';

// kube-controller-manager's clusterrole-aggregation controller (rbac/aggregation.ts decides what
// it writes): any ClusterRole change makes it look at every aggregated ClusterRole again, as kube's
// does; its writes change ClusterRoles too, which settles chains (admin <- edit <- view).

const CLUSTER_ROLES = 'clusterroles.rbac.authorization.k8s.io';

/** The field manager of its writes, as kube's controller applies them. */
export const AGGREGATION_MANAGER = 'clusterrole-aggregation-controller';

/**
 * The aggregation controller: `observe` says whether a change gives it work, `process` writes the
 * aggregated ClusterRoles whose rules differ from what their selectors gather.
 */
export class ClusterRoleAggregator {
  constructor(
    private readonly storage: Storage,
    private readonly types: ResourceTypes,
    private readonly registry: () => Registry,
  ) {}

  /** Whether `c` changed a ClusterRole. */
  observe(c: Change): boolean {
    return c.resource.id === CLUSTER_ROLES;
  }

  /** One pass over every ClusterRole. */
  process(): void {
    const type = this.types.resolve(CLUSTER_ROLES);
    const stored = [...this.storage.snapshot(type, this.storage.resourceVersion)];
    const roles = stored.map((s) => parseStored(s) as unknown as RbacRole & { metadata: { name: string } });
    for (const { name, rules } of clusterRoleAggregation(roles)) {
      const role = roles.find((r) => r.metadata.name === name);
      if (!role) continue;
      this.registry().update(type, '', name, { ...role, rules }, undefined, { owner: { manager: AGGREGATION_MANAGER } });
    }
  }
}
