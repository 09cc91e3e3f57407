// The Bun and Deno legs: `node scripts/check-runtime.mjs bun|deno`, after scripts/check-tutorial.mjs
// (it runs in the tutorial's project, where rxkube is the tarball the tutorial installed).
//  1. the tutorial's test: Bun runs the jest file with `bun test` (which serves @jest/globals), Deno
//     the node:test file with `deno test` (--sloppy-imports: the `.js` of relative imports is a `.ts`);
//  2. scripts/runtime-smoke.ts: an informer, a controller and leader election against the fake API server.
// The runtimes come from their npm packages (bun, deno), installed by .ci/run into .cache/runtimes;
// BUN or DENO in the environment name another binary.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './tutorialBlocks.mjs';

const runtime = process.argv[2];
const commands = {
  bun: { test: ['test', './test/backupController.test.ts'], smoke: ['runtime-smoke.ts'] },
  deno: { test: ['test', '-A', '--sloppy-imports', 'test-node/backupController.test.ts'], smoke: ['run', '-A', 'runtime-smoke.ts'] },
};
if (!(runtime in commands)) {
  console.error('usage: node scripts/check-runtime.mjs bun|deno');
  process.exit(2);
}
const binary = process.env[runtime.toUpperCase()] ?? join(ROOT, '.cache', 'runtimes', 'node_modules', '.bin', runtime);
const PROJECT = join(ROOT, '.cache', 'tutorial', 'backup-controller');
if (!existsSync(join(PROJECT, 'node_modules', 'rxkube'))) {
  console.error(`check-runtime: no tutorial project in ${PROJECT}: run scripts/check-tutorial.mjs first`);
  process.exit(1);
}
const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).split('\n')[0];
console.log(`=== ${runtime} ${version}`);
copyFileSync(join(ROOT, 'scripts', 'runtime-smoke.ts'), join(PROJECT, 'runtime-smoke.ts'));
let passed = 0;
let failed = 0;
for (const [part, args] of Object.entries(commands[runtime])) {
  const t0 = Date.now();
  console.log(`${runtime} $ ${runtime} ${args.join(' ')}`);
  try {
    execFileSync(binary, args, { cwd: PROJECT, stdio: 'inherit', timeout: 5 * 60_000, env: { ...process.env, RXKUBE_LOG: 'off', NO_COLOR: '1' } });
    passed++;
  } catch (e) {
    failed++;
    console.error(`check-runtime: ${runtime}: ${part} failed (${e.status ?? e.signal})`);
  }
  console.log(`${runtime}: ${part} ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
console.log(`${runtime}: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
