import { beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ConvergenceResult } from './convergenceScenario.js';

// Convergence: a seeded random mix of 20k creates, updates and deletes, with dropped connections,
// 410s, 500s, 429s, stalls, compactions and malformed lines, through the fake API server, the real
// ListWatch over client-node, the reflector, deltaFifo and a store; afterwards the store equals the
// server's objects exactly.
//
// The scenario runs in a child Node process (spec/reflector/convergenceScenario.ts, through tsx):
// under `jest --detectOpenHandles` every socket write and read is tracked with a stack trace by an
// async hook, which makes 20k watch events take 30-40 s instead of ~5 s. The assertions are here.

const scenario = fileURLToPath(new URL('./convergenceScenario.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

function runScenario(
  seed: number,
  changes: number,
  mode: 'coalescing' | 'ordered',
): Promise<ConvergenceResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', scenario, String(seed), String(changes), mode],
      { cwd: root, timeout: 50_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '' } },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`convergence scenario failed: ${err.message}\n${stderr}`));
        const line = stdout.trim().split('\n').at(-1) ?? '';
        try {
          resolve(JSON.parse(line) as ConvergenceResult);
        } catch {
          reject(new Error(`no result from the convergence scenario: ${stdout}\n${stderr}`));
        }
      },
    );
  });
}

// The run's figures (faults, relists, errors by kind) are printed only on request, so that `npm test`
// stays readable: CONVERGENCE_REPORT=1 npm test -- spec/reflector/convergence.
function report(mode: string, run: ConvergenceResult): void {
  if (process.env.CONVERGENCE_REPORT !== '1') return;
  const summary = { ...run, missing: run.missing.length, extra: run.extra.length, different: run.different.length };
  console.info(`convergence (${mode}): ${JSON.stringify(summary)}`);
}

function expectConverged(run: ConvergenceResult): void {
  expect(run.changes).toBeGreaterThanOrEqual(20_000);
  // nothing missing, nothing extra, nothing different
  expect({ missing: run.missing, extra: run.extra, different: run.different }).toEqual({
    missing: [],
    extra: [],
    different: [],
  });
  expect(run.storeObjects).toBe(run.serverObjects);
  expect(run.converged).toBe(true);
  // the faults happened, and the reflector recovered from them the way it should
  for (const f of ['dropWatches', 'watchError410', 'watchError500', 'compact', 'stall'])
    expect(run.faults[f]).toBeGreaterThan(0);
  expect(run.errors['410 relist']).toBeGreaterThan(0);
  expect(run.errors['500 relist']).toBeGreaterThan(0);
  expect(run.errors['429 rewatch']).toBeGreaterThan(0);
  expect(run.errors['WatchDeadError rewatch']).toBeGreaterThan(0); // stalls, found by the reflector's dead-watch detection
  expect(run.lists).toBeGreaterThan(1);
}

describe('reflector convergence under faults (seeded, 20k changes)', () => {
  // Both scenarios start together and each test awaits its own: a scenario spends most of its ~19 s
  // waiting (the quiet after each stall, until the reflector finds the dead watch; the turns that let
  // the client read), not computing, so two side by side take little longer than one. Same seeds,
  // same changes, same assertions.
  let runs: Record<'coalescing' | 'ordered', Promise<ConvergenceResult>>;
  beforeAll(() => {
    runs = { coalescing: runScenario(20260, 20_000, 'coalescing'), ordered: runScenario(7, 20_000, 'ordered') };
    // Each is awaited by its test; a failure is reported there, not as an unhandled rejection.
    for (const run of Object.values(runs)) run.catch(() => undefined);
  });

  it('R4, R5, R6, R11, R12: the store fed by reflector -> deltaFifo (coalescing) equals the server exactly', async () => {
    const run = await runs.coalescing;
    report('coalescing', run);
    expectConverged(run);
  }, 60_000);

  it('R4, R5, R6, R11, R12: the same with the ordered FIFO (RealFIFO), another seed', async () => {
    const run = await runs.ordered;
    report('ordered', run);
    expectConverged(run);
  }, 60_000);
});
