// One jest JSON report (`--json`) from the reports of several shards of the same run.

const SUMMED = [
  'numFailedTestSuites', 'numFailedTests', 'numPassedTestSuites', 'numPassedTests', 'numPendingTestSuites',
  'numPendingTests', 'numRuntimeErrorTestSuites', 'numTodoTests', 'numTotalTestSuites', 'numTotalTests',
];

/** Counts add up, lists concatenate, `success` needs every shard, the run starts with the first. */
export function mergeReports(reports) {
  const merged = {
    success: reports.length > 0 && reports.every((r) => r.success),
    wasInterrupted: reports.some((r) => r.wasInterrupted),
    startTime: Math.min(...reports.map((r) => r.startTime ?? Infinity)),
    openHandles: reports.flatMap((r) => r.openHandles ?? []),
    testResults: reports.flatMap((r) => r.testResults ?? []),
    snapshot: mergeSnapshots(reports.map((r) => r.snapshot).filter(Boolean)),
  };
  for (const key of SUMMED) merged[key] = reports.reduce((sum, r) => sum + (r[key] ?? 0), 0);
  if (!Number.isFinite(merged.startTime)) merged.startTime = Date.now();
  return merged;
}

/** Snapshot summaries: numbers add, lists concatenate, flags hold if any shard's holds. */
function mergeSnapshots(snapshots) {
  const out = {};
  for (const s of snapshots) {
    for (const [key, value] of Object.entries(s)) {
      if (typeof value === 'number') out[key] = (out[key] ?? 0) + value;
      else if (Array.isArray(value)) out[key] = [...(out[key] ?? []), ...value];
      else if (typeof value === 'boolean') out[key] = Boolean(out[key]) || value;
      else out[key] ??= value;
    }
  }
  return out;
}
