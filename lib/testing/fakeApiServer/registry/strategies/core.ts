import type { JsonObject } from '../../resources.js';
import { coreEventFieldSelectors, EVENTS_V1, toCoreEvent, toEventsV1Event } from '../events.js';
import { evictionSubresource } from '../eviction.js';
import { podConnectSubresources } from '../podConnect.js';
import { REPLICATION_CONTROLLER_SCALE, scaleSubresource } from '../scale.js';
import { fieldAt, SPEC, type StrategyEntry } from './strategyEntry.js';

// core/v1's registry strategies (KK pkg/registry/core/*/strategy.go and storage.go): short names,
// categories, name rules, generation, what a create does to the status, delete answers.

/** The namespace finalizer kube adds on create, removed by the namespace controller once the namespace is empty. */
export const KUBERNETES_FINALIZER = 'kubernetes';

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A Pod's QoS class from its containers' requests and limits (kube's `GetPodQOS`, cpu and memory). */
export function qosClass(spec: unknown): string {
  const containers = [...list((spec as JsonObject | undefined)?.containers), ...list((spec as JsonObject | undefined)?.initContainers)];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const res = (c as JsonObject).resources as { requests?: JsonObject; limits?: JsonObject } | undefined;
    const requests = res?.requests ?? {};
    const limits = res?.limits ?? {};
    for (const r of ['cpu', 'memory']) {
      if (requests[r] !== undefined || limits[r] !== undefined) any = true;
      const request = requests[r] ?? limits[r]; // a limit alone defaults the request
      if (limits[r] === undefined || String(request) !== String(limits[r])) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/**
 * A created Namespace (kube's namespace strategy): `status.phase: Active`, `spec.finalizers` with
 * `kubernetes` appended. Mutates `obj`.
 *
 * @example
 * ```ts
 * prepareNamespaceForCreate(ns); // ns.spec.finalizers = ['kubernetes']
 * ```
 */
export function prepareNamespaceForCreate(obj: JsonObject): void {
  const spec = (obj.spec && typeof obj.spec === 'object' ? { ...(obj.spec as JsonObject) } : {}) as { finalizers?: unknown };
  const finalizers = Array.isArray(spec.finalizers) ? spec.finalizers.filter((f) => f !== KUBERNETES_FINALIZER) : [];
  spec.finalizers = [...finalizers, KUBERNETES_FINALIZER];
  obj.spec = spec;
  obj.status = { phase: 'Active' };
}

const namespaceHolds = (obj: JsonObject): boolean => list((obj.spec as JsonObject | undefined)?.finalizers).length > 0;

const ALL = ['all'];

/**
 * core/v1's entries, by resource id.
 *
 * @example
 * ```ts
 * coreEntries.get('pods')?.shortNames; // ['po']
 * ```
 */
export const coreEntries: ReadonlyMap<string, StrategyEntry> = new Map<string, StrategyEntry>([
  [
    'pods',
    {
      shortNames: ['po'],
      categories: ALL,
      generation: SPEC,
      status: { onCreate: (obj) => ({ phase: 'Pending', qosClass: qosClass(obj.spec) }) },
      deleteAnswer: 'object',
      subresources: { eviction: evictionSubresource, ...podConnectSubresources },
      fieldSelectors: {
        'spec.nodeName': fieldAt('spec', 'nodeName'),
        'spec.restartPolicy': fieldAt('spec', 'restartPolicy'),
        'spec.schedulerName': fieldAt('spec', 'schedulerName'),
        'spec.serviceAccountName': fieldAt('spec', 'serviceAccountName'),
        'status.phase': fieldAt('status', 'phase'),
        'status.podIP': fieldAt('status', 'podIP'),
        'status.nominatedNodeName': fieldAt('status', 'nominatedNodeName'),
      },
    },
  ],
  ['configmaps', { shortNames: ['cm'] }],
  ['secrets', { fieldSelectors: { type: fieldAt('type') } }],
  [
    'namespaces',
    {
      shortNames: ['ns'],
      nameRule: 'dns1123Label',
      status: { onCreate: () => ({ phase: 'Active' }) },
      // spec.finalizers change only through /finalize (the namespace controller's write).
      resetFields: [['spec', 'finalizers']],
      subresources: { finalize: { verbs: ['update'], writes: [['spec', 'finalizers']] } },
      fieldSelectors: { 'status.phase': fieldAt('status', 'phase') },
      hooks: {
        prepareForCreate: prepareNamespaceForCreate,
        prepareForDelete: (obj) => {
          obj.status = { ...((obj.status as JsonObject | undefined) ?? {}), phase: 'Terminating' };
        },
        holdsDeletion: namespaceHolds,
      },
    },
  ],
  ['nodes', { shortNames: ['no'], status: { onCreate: 'keep' }, fieldSelectors: { 'spec.unschedulable': fieldAt('spec', 'unschedulable') } }],
  ['services', { shortNames: ['svc'], categories: ALL, nameRule: 'dns1035Label', status: { onCreate: () => ({ loadBalancer: {} }) } }],
  ['serviceaccounts', { shortNames: ['sa'], deleteAnswer: 'object' }],
  [
    'events',
    {
      shortNames: ['ev'],
      garbageCollection: 'none',
      fieldSelectors: coreEventFieldSelectors,
      // core/v1 and events.k8s.io/v1 Events are one storage (TESTCLUSTER.md §7).
      mirror: { resource: EVENTS_V1, convert: toEventsV1Event },
      hooks: { normalize: (e) => toCoreEvent(toEventsV1Event(e)) },
    },
  ],
  ['endpoints', { shortNames: ['ep'] }],
  ['persistentvolumeclaims', { shortNames: ['pvc'], status: { onCreate: () => ({ phase: 'Pending' }) } }],
  ['persistentvolumes', { shortNames: ['pv'], nameRule: 'pathSegment', status: { onCreate: () => ({ phase: 'Pending' }) } }],
  ['replicationcontrollers', { shortNames: ['rc'], categories: ALL, generation: SPEC, garbageCollection: 'Orphan', subresources: { scale: scaleSubresource(REPLICATION_CONTROLLER_SCALE, true) } }],
  ['limitranges', { shortNames: ['limits'] }],
  ['resourcequotas', { shortNames: ['quota'] }],
  ['componentstatuses', { shortNames: ['cs'] }],
]);
