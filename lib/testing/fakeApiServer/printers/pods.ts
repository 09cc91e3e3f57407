// Pods as `kubectl get pods [-o wide]` shows them (kube's printPod): READY counts ready running
// containers (and started ready restartable init containers, "sidecars"), STATUS is the phase
// refined by the reason of the first failing init container or the last waiting or terminated
// container, RESTARTS adds "(5m ago)" after the last restart.
import type { JsonObject } from '../resources.js';
import { ageSince, humanDuration, parseTimestamp } from './humanDuration.js';
import { ageColumn, column, nameColumn, wide } from './columns.js';
import { arr, at, createdOf, int, isDeleting, nameOf, obj, str } from './fields.js';
import type { PrintedRow, TablePrinter, TableRowCondition } from './table.js';

const succeeded: ReadonlyArray<TableRowCondition> = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
const failed: ReadonlyArray<TableRowCondition> = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

const isRestartable = (container: JsonObject | undefined): boolean => container?.restartPolicy === 'Always';
const terminatedAt = (status: JsonObject): number | undefined => parseTimestamp(at(status, 'lastState', 'terminated', 'finishedAt'));
const later = (a: number | undefined, b: number | undefined): number | undefined => (b === undefined || (a !== undefined && a >= b) ? a : b);
const hasCondition = (pod: JsonObject, type: string): boolean =>
  arr(at(pod, 'status', 'conditions')).some((c) => obj(c).type === type && obj(c).status === 'True');

/** What the init containers say: restarts, the reason while initializing, ready sidecars. */
interface InitSummary {
  restarts: number;
  sidecarRestarts: number;
  lastRestart: number | undefined;
  lastSidecarRestart: number | undefined;
  ready: number;
  reason: string | undefined;
}

function initSummary(pod: JsonObject, byName: ReadonlyMap<string, JsonObject>): InitSummary {
  const s: InitSummary = { restarts: 0, sidecarRestarts: 0, lastRestart: undefined, lastSidecarRestart: undefined, ready: 0, reason: undefined };
  const statuses = arr(at(pod, 'status', 'initContainerStatuses')).map(obj);
  const count = arr(at(pod, 'spec', 'initContainers')).length;
  for (let i = 0; i < statuses.length; i++) {
    const c = statuses[i];
    const sidecar = isRestartable(byName.get(str(c.name)));
    s.restarts += int(c.restartCount);
    s.lastRestart = later(s.lastRestart, terminatedAt(c));
    if (sidecar) {
      s.sidecarRestarts += int(c.restartCount);
      s.lastSidecarRestart = later(s.lastSidecarRestart, terminatedAt(c));
    }
    const terminated = at(c, 'state', 'terminated');
    const waitingReason = str(at(c, 'state', 'waiting', 'reason'));
    if (terminated !== undefined && int(obj(terminated).exitCode) === 0) continue;
    if (sidecar && c.started === true) {
      if (c.ready === true) s.ready++;
      continue;
    }
    if (terminated !== undefined) {
      const t = obj(terminated);
      s.reason = str(t.reason) ? `Init:${str(t.reason)}` : int(t.signal) !== 0 ? `Init:Signal:${int(t.signal)}` : `Init:ExitCode:${int(t.exitCode)}`;
    } else if (waitingReason !== '' && waitingReason !== 'PodInitializing') s.reason = `Init:${waitingReason}`;
    else s.reason = `Init:${i}/${count}`;
    break;
  }
  return s;
}

/** The Ready, Status and Restarts cells. */
function podState(pod: JsonObject): { ready: string; reason: string; restarts: number; lastRestart: number | undefined } {
  const phase = str(at(pod, 'status', 'phase'));
  let reason = str(at(pod, 'status', 'reason')) || phase;
  if (arr(at(pod, 'status', 'conditions')).some((c) => obj(c).type === 'PodScheduled' && obj(c).reason === 'SchedulingGated')) reason = 'SchedulingGated';
  const inits = arr(at(pod, 'spec', 'initContainers')).map(obj);
  const byName = new Map(inits.map((c) => [str(c.name), c]));
  const total = arr(at(pod, 'spec', 'containers')).length + inits.filter(isRestartable).length;
  const init = initSummary(pod, byName);
  let { restarts, lastRestart } = init;
  let ready = init.ready;
  if (init.reason !== undefined) reason = init.reason;
  if (init.reason === undefined || hasCondition(pod, 'Initialized')) {
    restarts = init.sidecarRestarts;
    lastRestart = init.lastSidecarRestart;
    let hasRunning = false;
    const statuses = arr(at(pod, 'status', 'containerStatuses')).map(obj);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i];
      restarts += int(c.restartCount);
      lastRestart = later(lastRestart, terminatedAt(c));
      const waiting = str(at(c, 'state', 'waiting', 'reason'));
      const terminated = at(c, 'state', 'terminated');
      if (waiting !== '') reason = waiting;
      else if (terminated !== undefined) {
        const t = obj(terminated);
        reason = str(t.reason) || (int(t.signal) !== 0 ? `Signal:${int(t.signal)}` : `ExitCode:${int(t.exitCode)}`);
      } else if (c.ready === true && at(c, 'state', 'running') !== undefined) {
        hasRunning = true;
        ready++;
      }
    }
    // A "Completed" container beside one still running: the pod is Running (or NotReady).
    if (reason === 'Completed' && hasRunning) reason = hasCondition(pod, 'Ready') ? 'Running' : 'NotReady';
  }
  if (isDeleting(pod) && str(at(pod, 'status', 'reason')) === 'NodeLost') reason = 'Unknown';
  else if (isDeleting(pod) && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  return { ready: `${ready}/${total}`, reason, restarts, lastRestart };
}

function readinessGates(pod: JsonObject): string {
  const gates = arr(at(pod, 'spec', 'readinessGates')).map((g) => str(obj(g).conditionType));
  if (gates.length === 0) return '<none>';
  const conditions = arr(at(pod, 'status', 'conditions')).map(obj);
  const passed = gates.filter((g) => conditions.find((c) => c.type === g)?.status === 'True').length;
  return `${passed}/${gates.length}`;
}

// v1's podIP wins over podIPs[0] (kube's v1 -> internal conversion), as the printer reads the latter.
const podIP = (pod: JsonObject): string => str(at(pod, 'status', 'podIP')) || str(obj(arr(at(pod, 'status', 'podIPs'))[0]).ip);

/**
 * Pods: Name, Ready, Status, Restarts, Age | IP, Node, Nominated Node, Readiness Gates; a Succeeded
 * or Failed pod's row carries a `Completed` condition.
 *
 * @example
 * ```ts
 * podPrinter.row(pod, Date.now()).cells; // ['web-0', '1/1', 'Running', '0', '5m', '10.0.0.5', 'node-1', '<none>', '<none>']
 * ```
 */
export const podPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    ageColumn,
    wide('IP'),
    wide('Node'),
    wide('Nominated Node'),
    wide('Readiness Gates'),
  ],
  row(pod: JsonObject, now: number): PrintedRow {
    const { ready, reason, restarts, lastRestart } = podState(pod);
    const restartsCell = restarts !== 0 && lastRestart !== undefined ? `${restarts} (${humanDuration(now - lastRestart)} ago)` : String(restarts);
    const phase = str(at(pod, 'status', 'phase'));
    return {
      cells: [
        nameOf(pod),
        ready,
        reason,
        restartsCell,
        ageSince(createdOf(pod), now),
        podIP(pod) || '<none>',
        str(at(pod, 'spec', 'nodeName')) || '<none>',
        str(at(pod, 'status', 'nominatedNodeName')) || '<none>',
        readinessGates(pod),
      ],
      ...(phase === 'Succeeded' ? { conditions: succeeded } : phase === 'Failed' ? { conditions: failed } : {}),
    };
  },
};
