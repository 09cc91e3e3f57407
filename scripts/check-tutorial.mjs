// Checks docs/tutorial.md as a reader follows it: packs rxkube (`npm pack`, which builds first),
// makes a fresh project in .cache/tutorial/project, writes every file the tutorial shows (fences
// with `file=PATH`), runs its commands (fences ```sh run) with `rxkube` installed from the tarball
// instead of the registry, and so runs the tutorial's tests in both setups (jest, node:test + tsx).
//
// Fences (after the language; GitHub ignores the words when rendering):
//   ```ts file=src/backup.ts     the file's whole content, written to the project as it is
//   ```sh run                    commands run in order, in the project, after the files are written
import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, '.cache', 'tutorial');
const PROJECT = join(OUT, 'project');
const FENCE = /^```(\w+)\s*(.*)$/;

/** The tutorial's fenced blocks: { lang, flags, code, line }. */
function blocks(markdown) {
  const lines = markdown.split('\n');
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    if (end === lines.length) throw new Error(`docs/tutorial.md:${i + 1}: unclosed fence`);
    found.push({ lang: open[1], flags: open[2].trim().split(/\s+/).filter(Boolean), code: lines.slice(i + 1, end).join('\n'), line: i + 1 });
    i = end;
  }
  return found;
}

function pack() {
  mkdirSync(OUT, { recursive: true });
  const json = execFileSync('npm', ['pack', '--json', '--pack-destination', OUT], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const [info] = JSON.parse(json.slice(json.indexOf('[')));
  const tarball = join(OUT, info.filename);
  const files = info.files.map((f) => f.path);
  for (const needed of ['dist/esm/index.js', 'dist/esm/testing.js', 'dist/cjs/index.cjs', 'dist/types/index.d.ts', 'dist/bin/rxkube-fake-apiserver.js']) {
    if (!files.includes(needed)) throw new Error(`the packed tarball lacks ${needed} (${files.length} files): prepack must build`);
  }
  console.log(`tutorial: packed ${info.filename} (${files.length} files, dist included)`);
  return tarball;
}

/** A command of the tutorial, with `rxkube` (the bare package name in an npm install) taken from the tarball. */
function localised(command, tarball) {
  if (!/^npm (i|install)\b/.test(command)) return command;
  return command.replace(/(^|\s)rxkube(?=\s|$)/, `$1${tarball}`);
}

const tutorial = blocks(readFileSync(join(ROOT, 'docs', 'tutorial.md'), 'utf8'));
const files = tutorial.filter((b) => b.flags.some((f) => f.startsWith('file=')));
const commands = tutorial.filter((b) => b.lang === 'sh' && b.flags.includes('run'));
if (files.length === 0 || commands.length === 0) throw new Error('docs/tutorial.md has no `file=` blocks or no `sh run` blocks');

const tarball = pack();
rmSync(PROJECT, { recursive: true, force: true });
mkdirSync(PROJECT, { recursive: true });
for (const b of files) {
  const path = b.flags.find((f) => f.startsWith('file=')).slice('file='.length);
  mkdirSync(dirname(join(PROJECT, path)), { recursive: true });
  writeFileSync(join(PROJECT, path), `${b.code}\n`);
}
console.log(`tutorial: wrote ${files.length} files into ${PROJECT}`);
for (const b of commands) {
  for (const raw of b.code.split('\n')) {
    const command = raw.replace(/\s+#.*$/, '').trim();
    if (command === '' || command.startsWith('#')) continue;
    const run = localised(command, tarball);
    console.log(`tutorial $ ${command}`);
    const t0 = Date.now();
    try {
      execSync(run, { cwd: PROJECT, stdio: 'inherit', timeout: 10 * 60_000, env: { ...process.env, RXKUBE_LOG: 'off' } });
    } catch (e) {
      console.error(`check-tutorial: docs/tutorial.md:${b.line}: \`${command}\` failed (${e.status ?? e.signal})`);
      process.exit(1);
    }
    console.log(`tutorial: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
}
console.log('tutorial ok: a fresh project from the packed tarball, the tutorial\'s files, both test setups passed');
