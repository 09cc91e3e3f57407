// ClusterRole aggregation as KCM's controller writes it, and the bootstrap policy it fills.
import { describe, expect, it } from '@jest/globals';
import { aggregateClusterRoles, clusterRoleAggregation } from '../../../lib/testing/fakeApiServer/rbac/aggregation.js';
import { privilegedGroupsAuthorizer, rbacAuthorizer, unionAuthorizer } from '../../../lib/testing/fakeApiServer/rbac/authorizer.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from '../../../lib/testing/fakeApiServer/rbac/bootstrapPolicy.js';
import { staticRbacObjects, type RbacRole } from '../../../lib/testing/fakeApiServer/rbac/rbacObjects.js';
import type { UserInfo } from '../../../lib/testing/fakeApiServer/rbac/userInfo.js';

const labelled = (name: string, labels: { [k: string]: string }, rules: RbacRole['rules']): RbacRole => ({ metadata: { name, labels }, rules });
const aggregating = (name: string, selectors: object[], rules: RbacRole['rules'] = []): RbacRole => ({ metadata: { name }, aggregationRule: { clusterRoleSelectors: selectors }, rules });

describe('ClusterRole aggregation', () => {
  it('gathers the rules of the roles each selector matches, by name, without duplicates or itself', () => {
    const roles = [
      aggregating('monitoring', [{ matchLabels: { team: 'mon' } }, { matchExpressions: [{ key: 'extra', operator: 'Exists' }] }]),
      labelled('b-metrics', { team: 'mon' }, [{ apiGroups: [''], resources: ['services'], verbs: ['get'] }]),
      labelled('a-pods', { team: 'mon', extra: 'x' }, [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]),
      labelled('c-other', { team: 'dev' }, [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]),
    ];
    expect(clusterRoleAggregation(roles)).toEqual([
      {
        name: 'monitoring',
        rules: [
          { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
          { verbs: ['get'], apiGroups: [''], resources: ['services'] },
        ],
      },
    ]);
  });

  it('writes nothing when the rules already are the gathered ones, and empties a role whose selectors match nothing', () => {
    const settled = aggregating('m', [{ matchLabels: { team: 'mon' } }], [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
    const member = labelled('p', { team: 'mon' }, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }]);
    expect(clusterRoleAggregation([settled, member])).toEqual([]);
    expect(clusterRoleAggregation([settled])).toEqual([{ name: 'm', rules: [] }]);
  });

  it('leaves a role whose selector does not parse as it is', () => {
    expect(clusterRoleAggregation([aggregating('bad', [{ matchExpressions: [{ key: 'a', operator: 'Near' }] }], [{ verbs: ['get'] }])])).toEqual([]);
  });

  it('settles chains: admin gets edit, which gets view', () => {
    const settled = aggregateClusterRoles(bootstrapClusterRoles);
    const rulesOf = (name: string) => settled.find((r) => r.metadata?.name === name)?.rules ?? [];
    const has = (name: string, resource: string, verb: string) => rulesOf(name).some((r) => r.resources?.includes(resource) && r.verbs?.includes(verb));
    expect(has('view', 'pods', 'list')).toBe(true);
    expect(has('view', 'secrets', 'get')).toBe(false);
    expect(has('edit', 'pods', 'list')).toBe(true);
    expect(has('edit', 'secrets', 'get')).toBe(true);
    expect(has('edit', 'roles', 'create')).toBe(false);
    expect(has('admin', 'roles', 'create')).toBe(true);
    expect(has('admin', 'deployments', 'patch')).toBe(true);
    expect(clusterRoleAggregation(settled)).toEqual([]);
  });
});

describe('bootstrap policy', () => {
  const objects = staticRbacObjects({ clusterRoles: aggregateClusterRoles(bootstrapClusterRoles), clusterRoleBindings: bootstrapClusterRoleBindings });
  const rbac = rbacAuthorizer(objects);
  const authenticated: UserInfo = { name: 'alice', groups: ['system:authenticated'] };

  it('binds cluster-admin to system:masters, which RBAC itself then allows', () => {
    expect(rbac({ kind: 'resource', user: { name: 'admin', groups: ['system:masters'] }, verb: 'delete', group: '', version: 'v1', resource: 'nodes', subresource: '', name: 'n', namespace: '' })).toEqual({
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"',
    });
    expect(unionAuthorizer(privilegedGroupsAuthorizer, rbac)({ kind: 'nonResource', user: { name: 'admin', groups: ['system:masters'] }, verb: 'get', path: '/x' }).reason).toBe('');
  });

  it('lets every authenticated user discover the API and review its own access, and nothing else', () => {
    expect(rbac({ kind: 'nonResource', user: authenticated, verb: 'get', path: '/apis/apps/v1' }).decision).toBe('Allow');
    expect(rbac({ kind: 'resource', user: authenticated, verb: 'create', group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews', subresource: '', name: '', namespace: '' }).decision).toBe('Allow');
    expect(rbac({ kind: 'resource', user: authenticated, verb: 'list', group: '', version: 'v1', resource: 'pods', subresource: '', name: '', namespace: 'default' }).decision).toBe('NoOpinion');
    expect(rbac({ kind: 'nonResource', user: { name: 'system:anonymous', groups: ['system:unauthenticated'] }, verb: 'get', path: '/version' }).decision).toBe('Allow');
    expect(rbac({ kind: 'nonResource', user: { name: 'system:anonymous', groups: ['system:unauthenticated'] }, verb: 'get', path: '/api' }).decision).toBe('NoOpinion');
  });
});
