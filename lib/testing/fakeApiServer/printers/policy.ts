// PodDisruptionBudgets and HorizontalPodAutoscalers as `kubectl get` shows them (kube's
// printPodDisruptionBudget, printHorizontalPodAutoscaler and formatHPAMetrics).
import type { JsonObject } from '../resources.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arr, at, createdOf, int, nameOf, obj, str } from './fields.js';
import { intOrString } from './formats.js';
import { ageSince } from './humanDuration.js';
import type { PrintedRow, TablePrinter } from './table.js';

const orNA = (v: unknown): string => (v === undefined || v === null ? 'N/A' : intOrString(v));

/**
 * PodDisruptionBudgets: Name, Min Available, Max Unavailable (`N/A` when unset), Allowed Disruptions
 * (integer), Age.
 *
 * @example
 * ```ts
 * pdbPrinter.row(pdb, Date.now()).cells.slice(1, 4); // ['2', 'N/A', 0]
 * ```
 */
export const pdbPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Min Available', 'string', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    ageColumn,
  ],
  row: (pdb: JsonObject, now: number): PrintedRow => ({
    cells: [
      nameOf(pdb),
      orNA(at(pdb, 'spec', 'minAvailable')),
      orNA(at(pdb, 'spec', 'maxUnavailable')),
      int(at(pdb, 'status', 'disruptionsAllowed')),
      ageSince(createdOf(pdb), now),
    ],
  }),
};

const q = (v: unknown): string => (typeof v === 'number' ? String(v) : str(v));
const UNKNOWN = '<unknown>';

/** One metric's `current/target` text (kube's formatHPAMetrics, one case per source type). */
function metricText(spec: JsonObject, status: JsonObject | undefined): string {
  const current = (source: string, field: string): string => {
    const v = at(status, source, 'current', field);
    return v === undefined || v === null ? UNKNOWN : q(v);
  };
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const source = spec.type === 'External' ? 'external' : 'object';
      const target = obj(at(spec, source, 'target'));
      return target.averageValue !== undefined
        ? `${current(source, 'averageValue')}/${q(target.averageValue)} (avg)`
        : `${current(source, 'value')}/${q(target.value)}`;
    }
    case 'Pods':
      return `${current('pods', 'averageValue')}/${q(at(spec, 'pods', 'target', 'averageValue'))}`;
    case 'Resource':
    case 'ContainerResource': {
      const source = spec.type === 'Resource' ? 'resource' : 'containerResource';
      const name = str(at(spec, source, 'name'));
      const target = obj(at(spec, source, 'target'));
      if (target.averageValue !== undefined) return `${name}: ${current(source, 'averageValue')}/${q(target.averageValue)}`;
      const utilization = at(status, source, 'current', 'averageUtilization');
      const now = typeof utilization === 'number' ? `${int(utilization)}%` : UNKNOWN;
      return `${name}: ${now}/${typeof target.averageUtilization === 'number' ? `${int(target.averageUtilization)}%` : '<auto>'}`;
    }
    default:
      return '<unknown type>';
  }
}

// autoscaling/v1's single CPU target, as the v2 metric kube converts it to; no metric at all reads
// as v2's default, 80% CPU utilization.
function metricsOf(hpa: JsonObject): { specs: JsonObject[]; statuses: JsonObject[] } {
  const specs = arr(at(hpa, 'spec', 'metrics')).map(obj);
  const statuses = arr(at(hpa, 'status', 'currentMetrics')).map(obj);
  if (specs.length > 0) return { specs, statuses };
  const v1Target = at(hpa, 'spec', 'targetCPUUtilizationPercentage');
  const v1Current = at(hpa, 'status', 'currentCPUUtilizationPercentage');
  const cpu = (utilization: unknown): JsonObject => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } });
  return {
    specs: [cpu(typeof v1Target === 'number' ? v1Target : 80)],
    statuses: typeof v1Current === 'number' ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: v1Current } } }] : [],
  };
}

function targets(hpa: JsonObject): string {
  const { specs, statuses } = metricsOf(hpa);
  const list = specs.map((spec, i) => metricText(spec, statuses[i]));
  return list.length > 2 ? `${list.slice(0, 2).join(', ')} + ${list.length - 2} more...` : list.join(', ');
}

/**
 * HorizontalPodAutoscalers (autoscaling/v2 and v1): Name, Reference (`Kind/name`), Targets
 * (`cpu: 40%/80%`), MinPods, MaxPods, Replicas, Age.
 *
 * @example
 * ```ts
 * hpaPrinter.row(hpa, Date.now()).cells.slice(1, 3); // ['Deployment/web', 'cpu: <unknown>/80%']
 * ```
 */
export const hpaPrinter: TablePrinter = {
  columns: [nameColumn, column('Reference'), column('Targets'), column('MinPods'), column('MaxPods'), column('Replicas'), ageColumn],
  row(hpa: JsonObject, now: number): PrintedRow {
    const min = at(hpa, 'spec', 'minReplicas');
    return {
      cells: [
        nameOf(hpa),
        `${str(at(hpa, 'spec', 'scaleTargetRef', 'kind'))}/${str(at(hpa, 'spec', 'scaleTargetRef', 'name'))}`,
        targets(hpa),
        // minReplicas defaults to 1 when reading.
        typeof min === 'number' ? String(int(min)) : '1',
        int(at(hpa, 'spec', 'maxReplicas')),
        int(at(hpa, 'status', 'currentReplicas')),
        ageSince(createdOf(hpa), now),
      ],
    };
  },
};
