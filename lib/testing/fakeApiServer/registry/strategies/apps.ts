import { scaleSubresource, WORKLOAD_SCALE } from '../scale.js';
import { fieldAt, SPEC, type StrategyEntry } from './strategyEntry.js';


// apps/v1's and batch/v1's registry strategies (KK pkg/registry/apps/*, pkg/registry/batch/*): the
// workloads, in `kubectl get all`, with generation and status resets.

const ALL = ['all'];
const SCALE = { scale: scaleSubresource(WORKLOAD_SCALE, true) };

/**
 * apps/v1 and batch/v1 entries, by resource id.
 *
 * @example
 * ```ts
 * workloadEntries.get('deployments.apps')?.generation; // { paths: [['spec'], ['metadata', 'annotations']] }
 * ```
 */
export const workloadEntries: ReadonlyMap<string, StrategyEntry> = new Map<string, StrategyEntry>([
  [
    'deployments.apps',
    {
      shortNames: ['deploy'],
      categories: ALL,
      // Annotations too: they are copied from a Deployment to its ReplicaSets.
      generation: { paths: [['spec'], ['metadata', 'annotations']] },
      subresources: SCALE,
    },
  ],
  [
    'replicasets.apps',
    { shortNames: ['rs'], categories: ALL, generation: SPEC, subresources: SCALE, status: { onCreate: () => ({ replicas: 0 }) }, fieldSelectors: { 'status.replicas': fieldAt('status', 'replicas') } },
  ],
  ['statefulsets.apps', { shortNames: ['sts'], categories: ALL, generation: SPEC, subresources: SCALE, status: { onCreate: () => ({ replicas: 0, availableReplicas: 0 }) } }],
  [
    'daemonsets.apps',
    {
      shortNames: ['ds'],
      categories: ALL,
      generation: SPEC,
      status: { onCreate: () => ({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 }) },
    },
  ],
  ['jobs.batch', { categories: ALL, generation: SPEC, garbageCollection: 'Orphan' }],
  ['cronjobs.batch', { shortNames: ['cj'], categories: ALL, generation: SPEC }],
]);
