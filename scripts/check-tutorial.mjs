// Checks docs/tutorial.md as a reader follows it, with nothing substituted: clones this repository's
// committed HEAD into .cache/tutorial/rxkube (the clone the tutorial tells the reader to make), makes
// the project beside it (.cache/tutorial/backup-controller), writes every file the tutorial shows
// (```LANG file=PATH) and runs its commands (```sh run) exactly as written, in order: the install
// from the clone's `npm pack`, then the tests with jest (ES modules), node:test + tsx and vitest, and
// the type-check. scripts/check-commonjs.mjs and scripts/check-runtime.mjs (Bun, Deno) reuse the clone's
// tarball and this project. See scripts/tutorialBlocks.mjs for the fences.
import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, commands, tutorialBlocks, writeFiles } from './tutorialBlocks.mjs';

const OUT = join(ROOT, '.cache', 'tutorial');
const CLONE = join(OUT, 'rxkube');
const PROJECT = join(OUT, 'backup-controller');

const blocks = tutorialBlocks();
const steps = commands(blocks, 'run');
if (steps.length === 0 || !blocks.some((b) => b.flags.some((f) => f.startsWith('file=')))) {
  throw new Error('docs/tutorial.md has no `file=` blocks or no `sh run` blocks');
}
// The tarball the tutorial installs must be the one `npm pack` writes for this version.
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const tarball = `${pkg.name}-${pkg.version}.tgz`;
for (const { command, line } of [...steps, ...commands(blocks, 'commonjs-run')]) {
  const named = /\.\.\/rxkube\/(\S+\.tgz)/.exec(command)?.[1];
  if (named !== undefined && named !== tarball) {
    console.error(`check-tutorial: docs/tutorial.md:${line} installs ${named}, but npm pack writes ${tarball} (package.json's version): update the tutorial`);
    process.exit(1);
  }
}

// What the reader has before the first command: a clone named rxkube, and the project's files.
const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).trim();
if (dirty !== '') console.warn('check-tutorial: uncommitted changes are not in the clone (it is of the committed HEAD)');
rmSync(OUT, { recursive: true, force: true });
mkdirSync(PROJECT, { recursive: true });
execFileSync('git', ['clone', '-q', ROOT, CLONE], { stdio: 'inherit' });
const files = writeFiles(blocks, 'file', PROJECT);
console.log(`tutorial: cloned HEAD into ${CLONE}; wrote ${files.length} files into ${PROJECT}`);

const t00 = Date.now();
for (const { command, line } of steps) {
  console.log(`tutorial $ ${command}`);
  const t0 = Date.now();
  try {
    execSync(command, { cwd: PROJECT, stdio: 'inherit', timeout: 30 * 60_000, env: { ...process.env, RXKUBE_LOG: 'off' } });
  } catch (e) {
    console.error(`check-tutorial: docs/tutorial.md:${line}: \`${command}\` failed (${e.status ?? e.signal})`);
    process.exit(1);
  }
  console.log(`tutorial: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
console.log(`tutorial ok: installed from the clone's npm pack as written; jest, node:test and vitest passed (${((Date.now() - t00) / 1000).toFixed(0)} s)`);
