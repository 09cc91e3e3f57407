import type { Pod } from 'kubernetes-types/core/v1.js';

/** Pods per phase (`Pending`, `Running`, ...), phases in first-seen order. */
export function phaseCounts(pods: ReadonlyArray<Pod>): ReadonlyArray<{ phase: string; count: number }> {
  const counts = new Map<string, number>();
  for (const pod of pods) {
    const phase = pod.status?.phase ?? 'Unknown';
    counts.set(phase, (counts.get(phase) ?? 0) + 1);
  }
  return [...counts].map(([phase, count]) => ({ phase, count }));
}
