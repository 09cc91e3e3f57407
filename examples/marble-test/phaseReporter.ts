// A handler worth testing: it reports pod phase transitions, and nothing else (not label changes,
// not resyncs).
import type { V1Pod } from '@kubernetes/client-node';
import { DeletedFinalStateUnknown, type ResourceEventHandler } from 'rxkube';

/** Builds the handler; `report` gets one line per transition. */
export function phaseReporter(report: (line: string) => void): ResourceEventHandler<V1Pod> {
  const name = (pod: V1Pod) => pod.metadata?.name ?? '?';
  return {
    add: (pod, isInInitialList) => {
      if (!isInInitialList) report(`${name(pod)}: new, ${pod.status?.phase ?? 'Unknown'}`);
    },
    update: (oldPod, pod) => {
      const before = oldPod.status?.phase;
      const after = pod.status?.phase;
      if (before !== after) report(`${name(pod)}: ${before ?? 'Unknown'} -> ${after ?? 'Unknown'}`);
    },
    delete: (obj) => {
      // A deletion found on a relist carries the last state the informer knew.
      const pod = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
      report(
        `${name(pod)}: deleted${obj instanceof DeletedFinalStateUnknown ? ' (while disconnected)' : ''}`,
      );
    },
  };
}
