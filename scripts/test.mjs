#!/usr/bin/env node
// `npm test`: jest, as N in-band processes side by side, one per core (at most two).
//
// Why: `--detectOpenHandles` (every leaked socket, timer or child process reported with the stack
// that made it) makes jest run in band, one file after another on one core. This runner keeps the
// flag and uses the other core: it starts one jest per shard (`--shard=i/N`, each in band), balanced
// by the files' recorded durations (spec/support/shardSequencer.mjs), then checks that the shards
// together ran every test file exactly once and merges their results.
//
// usage: node scripts/test.mjs [jest args...]
//   The arguments go to every shard. `--json` (with or without `--outputFile F`) gives one merged
//   report. One plain jest runs instead when RXKUBE_TEST_SHARDS=1, on a one-core machine, or with an
//   argument that makes no sense split (--watch, --listTests, --runInBand, --shard, ...).
// Output: shard 1 streams as it runs; the others' output follows, whole, as each one ends.
// Durations are kept in .cache/spec-times.json for the next run's balance.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeReports } from './testReport.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const JEST = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const TIMES = join(ROOT, '.cache', 'spec-times.json');
const UNSPLITTABLE = /^(--watch|--watchAll|--listTests|--showConfig|--shard|--runInBand|--help|--version|--clearCache|--init|-i|-h|-v)(=.*)?$/;

const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim() };
const argv = process.argv.slice(2);
const requested = Number(process.env.RXKUBE_TEST_SHARDS ?? Math.min(2, availableParallelism()));
const shardCount = Number.isInteger(requested) && requested > 0 ? Math.min(requested, 8) : 1;

if (shardCount === 1 || argv.some((a) => UNSPLITTABLE.test(a))) {
  const child = spawn(process.execPath, [JEST, ...argv], { cwd: ROOT, env, stdio: 'inherit' });
  forwardSignals([child]);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
} else {
  process.exitCode = await runShards(argv, shardCount);
}

/** The user's `--json` / `--outputFile` are the runner's to honour; every shard reports to a file. */
function splitReportArgs(args) {
  let json = false;
  let outputFile;
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--json') json = true;
    else if (a.startsWith('--outputFile=')) outputFile = a.slice('--outputFile='.length);
    else if (a === '--outputFile') outputFile = args[++i];
    else rest.push(a);
  }
  return { json, outputFile, rest };
}

async function runShards(args, n) {
  const { json, outputFile, rest } = splitReportArgs(args);
  const work = mkdtempSync(join(tmpdir(), 'rxkube-test-'));
  const weights = join(work, 'weights.json');
  writeFileSync(weights, existsSync(TIMES) ? readFileSync(TIMES) : '{}');
  const shardEnv = { ...env, RXKUBE_SPEC_WEIGHTS: weights, RXKUBE_SHARD_PLANS: work };
  process.stderr.write(`rxkube test: ${n} jest processes side by side, each in band (--shard=i/${n}); shard 1's output streams, the others' follows\n`);
  const t0 = Date.now();
  const shards = Array.from({ length: n }, (_, k) => startShard(k + 1, n, rest, shardEnv, work));
  forwardSignals(shards.map((s) => s.child));
  // Output in shard order: each shard's buffered output is flushed once the shards before it end.
  for (const s of shards) {
    s.live();
    await s.done;
  }
  const wallS = (Date.now() - t0) / 1000;
  try {
    return await finish({ shards, n, work, json, outputFile, wallS, passWithNoTests: rest.includes('--passWithNoTests') });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function startShard(index, n, args, shardEnv, work) {
  const report = join(work, `report-${index}.json`);
  const child = spawn(
    process.execPath,
    [JEST, ...args, `--shard=${index}/${n}`, '--passWithNoTests', '--json', `--outputFile=${report}`],
    { cwd: ROOT, env: shardEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const held = [];
  let streaming = false;
  const write = (stream) => (text) => {
    if (text === '') return;
    if (streaming) stream.write(text);
    else held.push([stream, text]);
  };
  child.stdout.setEncoding('utf8').on('data', write(process.stdout));
  // Whole lines, without the two a shard adds about itself: where its report went (the runner's
  // temporary folder) and that a filtered run left it nothing to do.
  let partial = '';
  const toStderr = write(process.stderr);
  child.stderr.setEncoding('utf8').on('data', (text) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop();
    toStderr(lines.filter((l) => !l.includes(work) && !l.startsWith('No tests found, exiting with code 0')).map((l) => `${l}\n`).join(''));
  });
  child.stderr.on('end', () => toStderr(partial));
  const done = new Promise((resolveDone) => {
    child.on('error', (error) => {
      process.stderr.write(`rxkube test: shard ${index} did not start: ${error.message}\n`);
      resolveDone({ code: 1, signal: null });
    });
    child.on('close', (code, signal) => resolveDone({ code, signal }));
  });
  const startMs = Date.now();
  const result = done.then((r) => ({ ...r, seconds: (Date.now() - startMs) / 1000 }));
  return {
    index,
    child,
    report,
    done: result,
    live() {
      for (const [stream, chunk] of held.splice(0)) stream.write(chunk);
      streaming = true;
    },
  };
}

async function finish({ shards, n, work, json, outputFile, wallS, passWithNoTests }) {
  const outcomes = await Promise.all(shards.map((s) => s.done));
  const reports = shards.map((s) => (existsSync(s.report) ? JSON.parse(readFileSync(s.report, 'utf8')) : undefined));
  const problems = [];
  outcomes.forEach((o, k) => {
    if (o.code !== 0) problems.push(`shard ${k + 1} exited ${o.code ?? o.signal}`);
    if (!reports[k]) problems.push(`shard ${k + 1} wrote no report`);
  });
  problems.push(...checkPlans(work, n, reports));
  const merged = mergeReports(reports.filter(Boolean));
  if (merged.numTotalTestSuites === 0 && !passWithNoTests) problems.push('no tests found');
  if (json) {
    const text = JSON.stringify(merged);
    if (outputFile) writeFileSync(resolve(process.cwd(), outputFile), text);
    else process.stdout.write(`${text}\n`);
  }
  recordTimes(merged);
  // The failures again, last: each shard's own summary may be far up the output (or cut by a `tail`).
  process.stderr.write(failureSummary(merged));
  const per = outcomes.map((o, k) => `shard ${k + 1} ${o.seconds.toFixed(0)} s`).join(', ');
  process.stderr.write(
    `\nrxkube test: ${merged.numTotalTestSuites} suites, ${merged.numTotalTests} tests: ${merged.numPassedTests} passed, ` +
      `${merged.numFailedTests} failed (${per}; ${wallS.toFixed(0)} s in all)\n`,
  );
  for (const p of problems) process.stderr.write(`rxkube test: ${p}\n`);
  return problems.length === 0 && merged.success ? 0 : 1;
}

/** Each failed test (at most 10), with the first lines of its message; '' when none failed. */
function failureSummary(merged) {
  const failures = [];
  for (const file of merged.testResults) {
    const name = relative(ROOT, file.name);
    // A file that failed outside its tests (it did not compile, a hook threw): jest's message for it.
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed')) {
      failures.push(`FAIL ${name}\n${String(file.message ?? '').trim()}`);
    }
    for (const a of file.assertionResults ?? []) {
      if (a.status === 'failed') failures.push(`FAIL ${name} › ${a.fullName}\n${(a.failureMessages ?? []).join('\n')}`);
    }
  }
  if (failures.length === 0) return '';
  const shown = failures.slice(0, 10).map((f) => f.split('\n').slice(0, 8).join('\n'));
  const more = failures.length > 10 ? `\n... and ${failures.length - 10} more\n` : '\n';
  return `\nrxkube test: failed (from both shards):\n${shown.join('\n\n')}${more}`;
}

/** Every test file in exactly one shard, and every shard saw the same files. */
function checkPlans(work, n, reports) {
  const problems = [];
  const plans = [];
  for (let k = 1; k <= n; k++) {
    const file = join(work, `plan-${k}.json`);
    if (existsSync(file)) plans.push(JSON.parse(readFileSync(file, 'utf8')));
  }
  // A shard whose filters match nothing never consults the sequencer: no plan, and nothing to check.
  if (plans.length === 0) return problems;
  const all = plans[0].all.join('\n');
  if (plans.some((p) => p.all.join('\n') !== all)) problems.push('the shards saw different test files');
  const planned = plans.flatMap((p) => p.mine);
  if (plans.length === n && planned.length !== plans[0].all.length) problems.push(`the shards planned ${planned.length} of ${plans[0].all.length} test files`);
  const ran = reports.filter(Boolean).flatMap((r) => r.testResults.map((t) => t.name));
  if (new Set(ran).size !== ran.length) problems.push('a test file ran in two shards');
  return problems;
}

function recordTimes(merged) {
  let times = {};
  try {
    times = existsSync(TIMES) ? JSON.parse(readFileSync(TIMES, 'utf8')) : {};
  } catch {
    times = {};
  }
  for (const t of merged.testResults) {
    const ms = t.endTime - t.startTime;
    if (Number.isFinite(ms) && ms >= 0) times[relative(ROOT, t.name)] = ms;
  }
  mkdirSync(dirname(TIMES), { recursive: true });
  writeFileSync(TIMES, JSON.stringify(times, null, 1));
}

function forwardSignals(children) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    // The children end, and with them the run: it exits with their outcome.
    process.on(signal, () => {
      for (const c of children) c.kill(signal);
    });
  }
}
