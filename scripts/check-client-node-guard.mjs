// Proves, on the built package, that a user with an unusable @kubernetes/client-node gets one clear
// sentence instead of a crash: a throwaway project (under .cache) holds rxkube's dist and a stand-in
// client-node whose module crashes on load as 2.x does on Node < 22.19. Its version is 2.0.1 on a
// Node older than 22.19 (the real case) and 1.3.0 otherwise (too old for rxkube), so the guard is
// hit on both CI legs. `rxkube` itself (imported first), `rxkube/testing`'s startFakeApiServer and the
// bin must refuse before loading client-node. Run after `npm run build`.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIR = join(ROOT, '.cache', 'client-node-guard');
const [major, minor] = process.versions.node.split('.').map(Number);
const version = major > 22 || (major === 22 && minor >= 19) ? '1.3.0' : '2.0.1';

rmSync(DIR, { recursive: true, force: true });
const mod = (name) => join(DIR, 'node_modules', name);
mkdirSync(mod('rxkube'), { recursive: true });
cpSync(join(ROOT, 'package.json'), join(mod('rxkube'), 'package.json'));
cpSync(join(ROOT, 'dist'), join(mod('rxkube'), 'dist'), { recursive: true });
for (const dep of ['rxjs', 'immer']) symlinkSync(join(ROOT, 'node_modules', dep), mod(dep), 'dir');
mkdirSync(mod('@kubernetes/client-node'), { recursive: true });
writeFileSync(
  join(mod('@kubernetes/client-node'), 'package.json'),
  JSON.stringify({ name: '@kubernetes/client-node', version, type: 'module', main: 'index.js' }),
);
const crash = "throw new TypeError(\"Cannot read properties of undefined (reading 'bind')\");\n";
writeFileSync(join(mod('@kubernetes/client-node'), 'index.js'), crash);
writeFileSync(join(DIR, 'package.json'), JSON.stringify({ name: 'guard-check', private: true, type: 'module' }));

const expected = version === '2.0.1' ? 'needs Node 22.19 or later' : 'rxkube needs @kubernetes/client-node 1.4 or later';
const fail = (what, out) => {
  console.error(`check-client-node-guard: ${what}\n${out}`);
  process.exit(1);
};

// `rxkube` itself on Node (the `node` export condition), imported first as a user's program would:
// the check runs before client-node is loaded, so the user sees the sentence, not the crash.
const mainEsm = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('rxkube'); await import('@kubernetes/client-node');"], { cwd: DIR, encoding: 'utf8' });
if (mainEsm.status === 0 || !mainEsm.stderr.includes('ClientNodeVersionError') || !mainEsm.stderr.includes(expected) || mainEsm.stderr.includes("reading 'bind'")) {
  fail('importing rxkube (ESM) did not refuse with the sentence', mainEsm.stderr);
}
const mainCjs = spawnSync(process.execPath, ['-e', "require('rxkube'); require('@kubernetes/client-node');"], { cwd: DIR, encoding: 'utf8' });
if (mainCjs.status === 0 || !mainCjs.stderr.includes('ClientNodeVersionError') || !mainCjs.stderr.includes(expected) || mainCjs.stderr.includes("reading 'bind'")) {
  fail('requiring rxkube (CJS) did not refuse with the sentence', mainCjs.stderr);
}

// The library entry (ESM and CJS).
const script =
  "const t = await import('rxkube/testing');" +
  "await t.startFakeApiServer().then(() => console.log('started'), (e) => console.log(e.code + ': ' + e.message));";
const esm = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: DIR, encoding: 'utf8' });
if (!esm.startsWith('ClientNodeVersionError: ') || !esm.includes(expected)) fail('rxkube/testing (ESM) did not refuse', esm);
const cjsScript =
  "require('rxkube/testing').startFakeApiServer().then(() => console.log('started'), (e) => console.log(e.code + ': ' + e.message));";
const cjs = execFileSync(process.execPath, ['-e', cjsScript], { cwd: DIR, encoding: 'utf8' });
if (!cjs.startsWith('ClientNodeVersionError: ') || !cjs.includes(expected)) fail('rxkube/testing (CJS) did not refuse', cjs);

// The bin: exit 1, one line on stderr.
const bin = spawnSync(process.execPath, [join(mod('rxkube'), 'dist', 'bin', 'rxkube-fake-apiserver.js')], {
  cwd: DIR,
  encoding: 'utf8',
  timeout: 30_000,
});
const lines = bin.stderr.trim().split('\n');
if (bin.status !== 1 || lines.length !== 1 || !lines[0].startsWith('rxkube-fake-apiserver: ') || !lines[0].includes(expected)) {
  fail(`the bin did not refuse in one line (exit ${bin.status})`, bin.stderr + bin.stdout);
}
rmSync(DIR, { recursive: true, force: true });
console.log(`client-node guard ok (Node ${process.versions.node}, client-node ${version}): ${lines[0]}`);
