import { describe, expect, it } from '@jest/globals';
import { RxkubeError } from '../../lib/errors.js';
import { resourcePath } from '../../lib/listwatch/resourcePath.js';
import type { Resource } from '../../lib/listwatch/resource.js';

const pods: Resource = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true };
const deployments: Resource = { group: 'apps', version: 'v1', plural: 'deployments', namespaced: true };
const widgets: Resource = { group: 'example.com', version: 'v1alpha1', plural: 'widgets', namespaced: true };
const nodes: Resource = { group: '', version: 'v1', plural: 'nodes', namespaced: false };
const crbs: Resource = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterrolebindings',
  namespaced: false,
};

describe('resourcePath', () => {
  it('puts core resources under /api and grouped ones (custom resources too) under /apis', () => {
    expect(resourcePath(pods)).toBe('/api/v1/pods');
    expect(resourcePath(deployments)).toBe('/apis/apps/v1/deployments');
    expect(resourcePath(widgets)).toBe('/apis/example.com/v1alpha1/widgets');
  });

  it('scopes a namespaced resource to one namespace, or to all when the namespace is unset or empty', () => {
    expect(resourcePath(pods, 'kube-system')).toBe('/api/v1/namespaces/kube-system/pods');
    expect(resourcePath(widgets, 'prod')).toBe('/apis/example.com/v1alpha1/namespaces/prod/widgets');
    expect(resourcePath(pods, '')).toBe('/api/v1/pods');
  });

  it('lists cluster-scoped resources at the top and refuses a namespace for them', () => {
    expect(resourcePath(nodes)).toBe('/api/v1/nodes');
    expect(resourcePath(crbs)).toBe('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings');
    expect(() => resourcePath(nodes, 'default')).toThrow(RxkubeError);
    expect(() => resourcePath(nodes, 'default')).toThrow(/nodes is cluster-scoped/);
  });

  it('encodes path segments', () => {
    expect(resourcePath(pods, 'a/b')).toBe('/api/v1/namespaces/a%2Fb/pods');
  });
});
