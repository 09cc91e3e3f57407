// Proves that the core bundles for the browser: every file under lib/ except the Node-only ones
// (the client-node transport, rxkube/testing, rxkube/prometheus, rxkube/webhooks, the bin and lib/node.ts, the entry Node loads) is bundled with Node built-ins forbidden.
// Then guards the size of what a browser app gets (run after `npm run build`): the built package's
// browser entry, bundled and minified by esbuild (as the Angular CLI does) for the imports of
// examples/angular's service, rxjs and immer left out (apps count them as their own packages), must
// stay within BUDGET. Growth fails here: find what grew (`--detail` lists rxkube's files by size,
// from the source) and keep what only Node or tests need out of lib/index.ts's reach.
import { rollup } from 'rollup';
import typescript from '@rollup/plugin-typescript';
import { builtinModules } from 'node:module';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

// Files allowed to import Node built-ins (or @kubernetes/client-node, which does); lib/crd/definition is
// rxkube/crd, a build-time entry (it reuses the fake server's CRD validation).
const nodeOnly = [/^lib\/node\.ts$/, /^lib\/crd\/definition\//, /^lib\/testing\//, /^lib\/bin\//, /^lib\/transport\/clientNode/, /^lib\/node\//, /^lib\/prometheus\//, /^lib\/webhooks\//];
const walk = (dir) => readdirSync(dir).flatMap((f) => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
});
const files = walk('lib').map((f) => relative('.', f)).filter((f) => !nodeOnly.some((re) => re.test(f)));
const entry = '\0browser-entry';
const offenders = [];
const bundle = await rollup({
  input: entry,
  plugins: [
    {
      name: 'browser-entry',
      resolveId: (id) => (id === entry ? id : null),
      load: (id) => (id === entry ? files.map((f) => `export * as m${files.indexOf(f)} from ${JSON.stringify('./' + f)};`).join('\n') : null),
    },
    {
      name: 'forbid-node',
      resolveId(id, importer) {
        const bare = id.replace(/^node:/, '');
        if (id.startsWith('node:') || builtinModules.includes(bare) || id === '@kubernetes/client-node') {
          offenders.push(`${importer ? relative('.', importer) : '?'} imports ${id}`);
          return { id, external: true };
        }
        return null;
      },
    },
    typescript({ tsconfig: './tsconfig.json', declaration: false, sourceMap: false, outDir: undefined, rootDir: undefined, include: ['lib/**/*.ts'] }),
  ],
  external: (id) => id === 'rxjs' || id.startsWith('rxjs/') || id === 'immer',
  onwarn: () => {},
});
await bundle.generate({ format: 'es' });
await bundle.close();
if (offenders.length) {
  console.error('browser bundle check failed: these core files reach Node-only modules:\n  ' + offenders.join('\n  '));
  process.exit(1);
}
console.log(`browser bundle ok: ${files.length} core files, no Node built-ins`);

// The budget, in bytes of rxkube's minified code. Issue 36 took the Node transport out of the browser
// entry: 94.7 kB before, 89.2 kB after (89,246 bytes); the rest of the growth since 85.8 kB is the
// factory's metadata() and followCrd() (see the CHANGELOG). Then informer.lag() (issue 38's lag metric)
// and plainCopy's own-property copy (issue 34): 89,548 bytes. Then 96,607 bytes: cutting managedFields
// before JSON.parse (lib/listwatch/managedFieldsCuts.ts, 3.7 kB, issue 37), the RBAC declarations the
// factory's informers make (lib/rbac/permission.ts, 1.2 kB, issue 35), the factory's tracing option and
// the informer's key hand-over (issues 37, 38). Raise it only for code a browser app needs.
const BUDGET = 96_800;
const { build } = await import('esbuild');
const service = readFileSync('examples/angular/src/app/pods.service.ts', 'utf8');
const imports = /import \{([^}]*)\} from 'rxkube';/.exec(service)[1].split(',').map((s) => s.trim()).filter((s) => s && !s.startsWith('type '));
const measure = async (contents, resolveDir, loader) => {
  const result = await build({
    stdin: { contents, resolveDir, loader },
    bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, metafile: true, logLevel: 'silent',
    external: ['rxjs', 'rxjs/*', 'immer', '@kubernetes/client-node'],
  });
  return Object.entries(Object.values(result.metafile.outputs)[0].inputs).map(([file, { bytesInOutput }]) => [file, bytesInOutput]);
};
// `rxkube` resolved as an app resolves it: this package's exports, the browser (non-`node`) entry.
const SELF = join('.cache', 'browser-bundle');
mkdirSync(join(SELF, 'node_modules'), { recursive: true });
rmSync(join(SELF, 'node_modules', 'rxkube'), { force: true, recursive: true });
symlinkSync(resolve('.'), join(SELF, 'node_modules', 'rxkube'), 'dir');
const inputs = await measure(`export { ${imports.join(', ')} } from 'rxkube';`, resolve(SELF), 'js');
const bytes = inputs.reduce((sum, [, b]) => sum + b, 0);
const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
console.log(`browser bundle size: ${kb(bytes)} (${bytes} bytes) of rxkube for { ${imports.join(', ')} } (minified, rxjs and immer apart); budget ${kb(BUDGET)}`);
if (process.argv.includes('--detail')) {
  const bySource = await measure(`export { ${imports.join(', ')} } from './lib/index.ts';`, resolve('.'), 'ts');
  for (const [file, b] of bySource.sort((a, c) => c[1] - a[1]).slice(0, 40)) console.log(`  ${file.padEnd(50)} ${b}`);
}
if (bytes > BUDGET) {
  console.error(`browser bundle check failed: rxkube is ${kb(bytes)} in a browser app, over its budget of ${kb(BUDGET)}. ` +
    'See what grew with `node scripts/check-browser-bundle.mjs --detail`; keep Node-only and test-only code out of the browser entry (lib/index.ts).');
  process.exit(1);
}
