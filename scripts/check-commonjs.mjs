// CommonJS, as a project without "type": "module" has it, on the package the tutorial installs:
//  1. the tutorial's "In a CommonJS project": a fresh project beside the clone of
//     scripts/check-tutorial.mjs (run that first), the tutorial's src/ and test/ files and its
//     CommonJS jest.config.js and tsconfig.json, its commands as written: jest with ts-jest's default
//     preset, no --experimental-vm-modules, runs the tutorial's test against rxkube/testing;
//  2. plain node: require() of every entry of package.json's exports (scripts/entryPoints.mjs), and
//     the fake API server with an informer synced from it;
//  3. ts-node (the check's own install): the same in TypeScript compiled to CommonJS.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { entryPoints } from './entryPoints.mjs';
import { ROOT, commands, tutorialBlocks, writeFiles } from './tutorialBlocks.mjs';

const OUT = join(ROOT, '.cache', 'tutorial');
const PROJECT = join(OUT, 'backup-controller-cjs');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
if (!existsSync(join(OUT, 'rxkube', `${pkg.name}-${pkg.version}.tgz`))) {
  console.error('check-commonjs: no packed rxkube in .cache/tutorial/rxkube: run scripts/check-tutorial.mjs first');
  process.exit(1);
}
const fail = (what, e) => {
  console.error(`check-commonjs: ${what}${e ? `\n${e.stdout ?? ''}${e.stderr ?? ''}` : ''}`);
  process.exit(1);
};
const run = (command, line) => {
  console.log(`commonjs $ ${command}`);
  const t0 = Date.now();
  try {
    execSync(command, { cwd: PROJECT, stdio: 'inherit', timeout: 30 * 60_000, env: { ...process.env, RXKUBE_LOG: 'off' } });
  } catch (e) {
    fail(`${line ? `docs/tutorial.md:${line}: ` : ''}\`${command}\` failed (${e.status ?? e.signal})`);
  }
  console.log(`commonjs: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
};

// 1. The tutorial's CommonJS project.
const blocks = tutorialBlocks();
rmSync(PROJECT, { recursive: true, force: true });
mkdirSync(PROJECT, { recursive: true });
const own = writeFiles(blocks, 'commonjs', PROJECT);
const shared = writeFiles(blocks, 'file', PROJECT, (p) => p.startsWith('src/') || p.startsWith('test/'));
if (own.length === 0 || shared.length === 0) fail('docs/tutorial.md has no `commonjs=` blocks or no src/ and test/ files');
const steps = commands(blocks, 'commonjs-run');
if (!steps.some((s) => /jest/.test(s.command))) fail('docs/tutorial.md: the `sh commonjs-run` block runs no jest');
for (const { command, line } of steps) run(command, line);
const manifest = JSON.parse(readFileSync(join(PROJECT, 'package.json'), 'utf8'));
if (manifest.type === 'module') fail('the CommonJS project is "type": "module"');

// 2. Plain node: every entry (with rxkube's optional peers installed, which entries such as
// rxkube/prometheus need), then the fake API server and an informer.
const optionalPeers = Object.keys(pkg.peerDependenciesMeta ?? {}).filter((p) => pkg.peerDependenciesMeta[p].optional);
run(`npm install --no-save ts-node@^10 ${optionalPeers.map((p) => `${p}@${JSON.stringify(pkg.peerDependencies[p])}`).join(' ')}`);
const specifiers = entryPoints(pkg).specifiers.map((s) => s.specifier);
for (const specifier of specifiers) {
  const out = execFileSync(process.execPath, ['-e', `console.log(Object.keys(require(${JSON.stringify(specifier)})).length)`], { cwd: PROJECT, encoding: 'utf8' });
  if (!(Number(out) > 0)) fail(`require('${specifier}') exports nothing`);
  console.log(`commonjs: require('${specifier}'): ${out.trim()} exports`);
}
const smoke = `
const { sharedInformerFactory } = require('rxkube');
const { startFakeApiServer } = require('rxkube/testing');
(async () => {
  const api = await startFakeApiServer();
  api.create('configmaps', { metadata: { namespace: 'default', name: 'one' } });
  const factory = sharedInformerFactory(api.kubeConfig());
  const configMaps = factory.configMaps();
  factory.start();
  const synced = await factory.waitForCacheSync({ timeout: 20000 });
  const names = configMaps.lister().list().map((c) => c.metadata.name);
  await factory.shutdown();
  await api.close();
  if (synced.get('configmaps') !== true || names.join() !== 'one') throw new Error('not synced: ' + JSON.stringify([...synced]) + ' ' + names);
  console.log('synced', names.join());
})().catch((e) => { console.error(e); process.exit(1); });
`;
writeFileSync(join(PROJECT, 'smoke.cjs'), smoke);
run('node smoke.cjs');

// 3. ts-node, in the same project (its tsconfig: Node16, CommonJS here).
writeFileSync(join(PROJECT, 'smoke.ts'), smoke.replace("const { sharedInformerFactory } = require('rxkube');", "import { sharedInformerFactory } from 'rxkube';").replace("const { startFakeApiServer } = require('rxkube/testing');", "import { startFakeApiServer } from 'rxkube/testing';").replace('(c) =>', '(c: { metadata?: { name?: string } }) =>').replace('c.metadata.name', 'c.metadata?.name'));
run('npx ts-node --project tsconfig.json smoke.ts');
console.log(`commonjs ok: jest (ts-jest's default preset, no ESM flags) ran the tutorial's test; node and ts-node required ${specifiers.join(', ')}`);
