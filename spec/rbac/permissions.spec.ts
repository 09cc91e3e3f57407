// RBAC from what the code declares at construction (nothing is started or run): the factory's
// informers (full and metadata-only, all namespaces or one, following a CRD), a controller's for,
// owns and watches plus the writes it declares, an event recorder, a leader election Lease; and
// the least ClusterRole/Role and bindings that grant them.
import { describe, expect, it } from '@jest/globals';
import { Type } from '@sinclair/typebox';
import {
  builtInResources,
  can,
  controller,
  eventRecorder,
  leaderElection,
  leaseLock,
  owned,
  permissionsOf,
  policyRules,
  rbacObjects,
  sharedInformerFactory,
  watch,
  type EventSink,
  type Transport,
} from '../../lib/index.js';
import { defineCustomResource } from '../../lib/crd/definition/index.js';

const transport = { request: () => Promise.reject(new Error('never called: nothing is started')) } as unknown as Transport;
const gadgets = defineCustomResource({ group: 'example.com', kind: 'Gadget', version: 'v1', spec: Type.Object({ size: Type.Integer() }) });
const noop = async () => undefined;

describe('what the code declares', () => {
  it('a factory: list and watch of each informer it made, full or metadata-only, in its namespace if it has one', async () => {
    const all = sharedInformerFactory(transport);
    all.pods();
    all.metadata(builtInResources.secrets);
    all.informerFor(gadgets);
    expect(policyRules(permissionsOf(all))).toEqual([
      { apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['list', 'watch'] },
      { apiGroups: ['example.com'], resources: ['gadgets'], verbs: ['list', 'watch'] },
    ]);
    const shop = sharedInformerFactory(transport, { namespace: 'shop' });
    shop.configMaps();
    shop.nodes(); // cluster-scoped: no namespace
    expect(permissionsOf(shop)).toEqual([
      { apiGroup: '', resource: 'configmaps', verbs: ['list', 'watch'], namespace: 'shop' },
      { apiGroup: '', resource: 'nodes', verbs: ['list', 'watch'] },
    ]);
    await Promise.all([all.shutdown(), shop.shutdown()]);
  });

  it('an informer that follows its CRD also reads CustomResourceDefinitions', async () => {
    const factory = sharedInformerFactory(transport);
    const follower = factory.followCrd(gadgets);
    expect(policyRules(permissionsOf(follower))).toEqual([
      { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['list', 'watch'] },
      { apiGroups: ['example.com'], resources: ['gadgets'], verbs: ['list', 'watch'] },
    ]);
    await factory.shutdown();
  });

  it('a controller: the reads of for, owns and watches, and the writes it declares (an event recorder among them)', async () => {
    const factory = sharedInformerFactory(transport);
    const recorder = eventRecorder({ sink: { create: noop, patch: noop } as unknown as EventSink, reportingController: 'example.com/gadgets', reportingInstance: 'a' });
    const ctl = controller({
      for: factory.informerFor(gadgets),
      forKind: gadgets,
      owns: [owned(factory.metadata(builtInResources.pods))],
      watches: [watch(factory.configMaps(), () => [])],
      permissions: [can.writeStatus(gadgets), can.finalize(gadgets), can.apply(builtInResources.pods), recorder],
      reconcile: noop,
    });
    expect(policyRules(permissionsOf(ctl))).toEqual([
      { apiGroups: [''], resources: ['configmaps'], verbs: ['list', 'watch'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch', 'create', 'patch'] },
      { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
      { apiGroups: ['example.com'], resources: ['gadgets'], verbs: ['list', 'watch', 'patch'] },
      { apiGroups: ['example.com'], resources: ['gadgets/finalizers'], verbs: ['update'] },
      { apiGroups: ['example.com'], resources: ['gadgets/status'], verbs: ['update', 'patch'] },
    ]);
    recorder.close();
    await ctl.stop();
    await factory.shutdown();
  });

  it('can.patchStatus grants patch of /status only (server-side apply of a status never creates nor updates); writeStatus both', () => {
    expect(can.patchStatus(builtInResources.deployments)).toEqual({ apiGroup: 'apps', resource: 'deployments/status', verbs: ['patch'] });
    expect(can.patchStatus(gadgets, 'shop')).toEqual({ apiGroup: 'example.com', resource: 'gadgets/status', verbs: ['patch'], namespace: 'shop' });
    expect(can.patchStatus(builtInResources.nodes, 'shop')).toEqual({ apiGroup: '', resource: 'nodes/status', verbs: ['patch'] }); // cluster-scoped
    expect(policyRules([can.patchStatus(gadgets), can.writeStatus(gadgets)])).toEqual([{ apiGroups: ['example.com'], resources: ['gadgets/status'], verbs: ['update', 'patch'] }]);
  });

  it('leader election: get and update of its Lease by name, create in its namespace', async () => {
    const elector = leaderElection({ lock: leaseLock(transport, 'ops', 'gadget-controller'), identity: 'a' });
    expect(permissionsOf(elector)).toEqual([
      { apiGroup: 'coordination.k8s.io', resource: 'leases', verbs: ['get', 'update'], namespace: 'ops', resourceNames: ['gadget-controller'] },
      { apiGroup: 'coordination.k8s.io', resource: 'leases', verbs: ['create'], namespace: 'ops' },
    ]);
    await elector.stop();
  });
});

describe('the least roles', () => {
  it('merges verbs per resource and resources per verbs; a named grant covered by an unnamed one goes', () => {
    expect(
      policyRules([
        { apiGroup: '', resource: 'pods', verbs: ['watch'] },
        { apiGroup: '', resource: 'pods', verbs: ['list', 'list'] },
        { apiGroup: '', resource: 'services', verbs: ['list', 'watch'] },
        { apiGroup: '', resource: 'pods', verbs: ['get', 'list'], resourceNames: ['a'] },
      ]),
    ).toEqual([
      { apiGroups: [''], resources: ['pods', 'services'], verbs: ['list', 'watch'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
    ]);
  });

  it('a ClusterRole for what is needed everywhere, a Role per namespace for the rest, each bound to the ServiceAccount', () => {
    const objects = rbacObjects([can.read(builtInResources.pods), ...can.holdLease('ops', 'c'), can.read(builtInResources.pods, 'ops')], {
      name: 'c',
      serviceAccount: { namespace: 'ops', name: 'c-sa' },
    });
    expect(objects.map((o) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
      'ServiceAccount ops/c-sa',
      'ClusterRole /c',
      'ClusterRoleBinding /c',
      'Role ops/c',
      'RoleBinding ops/c',
    ]);
    expect(objects[3].rules).toEqual([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'update'], resourceNames: ['c'] },
    ]);
    expect(objects[4].subjects).toEqual([{ kind: 'ServiceAccount', name: 'c-sa', namespace: 'ops' }]);
  });
});
