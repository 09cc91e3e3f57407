// Types for scripts/testReport.mjs (a plain module: scripts/test.mjs runs without a build).
export interface ShardReport {
  success: boolean;
  wasInterrupted?: boolean;
  startTime?: number;
  openHandles?: unknown[];
  testResults?: { name: string; startTime: number; endTime: number }[];
  snapshot?: Record<string, unknown>;
  [count: string]: unknown;
}
export function mergeReports(reports: ShardReport[]): ShardReport & Record<string, number | boolean | unknown[]>;
