// Builds ESM + CJS + type declarations for every entry point of package.json's `exports`, and the fake
// API server and CRD bins. The entries come from `exports` itself (`./dist/esm/NAME.js`: lib/NAME.ts for `index`
// and `node`, else lib/NAME/index.ts), so a new entry needs no edit here.
import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';
import { builtinModules } from 'node:module';
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { entryPoints } from './scripts/entryPoints.mjs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
// Peer dependencies and dependencies stay imports of the user's copies. Anything else imported by
// name (a devDependency such as @marcbachmann/cel-js, which ships ES modules only) is bundled, so
// the CommonJS build never require()s an ES module that jest's CommonJS runtime cannot load.
const deps = [...Object.keys(pkg.peerDependencies ?? {}), ...Object.keys(pkg.dependencies ?? {})];
const isBuiltin = (id) => id.startsWith('node:') || builtinModules.includes(id);
const external = (id) =>
  isBuiltin(id) ||
  deps.some((d) => id === d || id.startsWith(`${d}/`)) ||
  id === 'rxkube' || id.startsWith('rxkube/');

/** Resolves the bare imports that are bundled, through Node's resolution (they have no `require` export to follow). */
function bundleOthers() {
  const bare = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !external(id);
  return {
    name: 'bundle-others',
    resolveId(id, importer) {
      if (importer === undefined || !bare(id)) return null; // entries are paths
      return fileURLToPath(import.meta.resolve(id));
    },
    // The licence notice of each bundled package heads the chunk that carries its code.
    banner(chunk) {
      const names = new Set(chunk.moduleIds.map((id) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1]).filter(Boolean));
      return [...names]
        .map((name) => {
          const meta = JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8'));
          return `/*! ${meta.name} ${meta.version}, bundled into rxkube; its ${meta.license} licence applies to its code */`;
        })
        .join('\n');
    },
    onLog(_level, log) {
      // cel-js's own module cycle (registry <-> functions) is not rxkube's to fix.
      if (log.code === 'CIRCULAR_DEPENDENCY' && log.ids?.every((id) => id.includes('/node_modules/'))) return false;
    },
  };
}

const { js: jsEntries, types: typeEntries } = entryPoints(pkg);
// inlineSources: the maps carry the TypeScript they point at (lib/ is not in the package).
const ts = () => typescript({ tsconfig: './tsconfig.json', declaration: false, sourceMap: true, inlineSources: true, outDir: undefined, rootDir: undefined, include: ['lib/**/*.ts'] });

const bin = 'lib/bin/rxkube-fake-apiserver.ts';
// Each bin imports its entry (rxkube/testing, rxkube/crd) from the package's own ESM build.
const crdBin = 'lib/bin/rxkube-crd.ts';
export default [
  {
    input: jsEntries,
    external,
    output: [
      { dir: 'dist/esm', format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: true },
      // dynamicImportInCjs: false: `await import('@kubernetes/client-node')` becomes a require(), which
      // jest's CommonJS runtime (no --experimental-vm-modules) can run and a dynamic import() it cannot.
      { dir: 'dist/cjs', format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs', sourcemap: true, exports: 'named', dynamicImportInCjs: false },
    ],
    plugins: [bundleOthers(), ts()],
  },
  {
    input: typeEntries,
    external,
    output: [
      { dir: 'dist/types', format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: 'chunks/[name]-[hash].d.ts' },
      { dir: 'dist/types', format: 'es', entryFileNames: '[name].d.cts', chunkFileNames: 'chunks/[name]-[hash].d.cts' },
    ],
    plugins: [dts({ tsconfig: './tsconfig.json' })],
  },
  ...(existsSync(bin)
    ? [{
        input: bin,
        external: (id) => external(id) || id.endsWith('/testing/index.js') || id.endsWith('/testing/index.ts'),
        output: { file: 'dist/bin/rxkube-fake-apiserver.js', format: 'es', banner: '#!/usr/bin/env node', paths: (id) => (id.includes('/testing/index') ? '../esm/testing.js' : id) },
        plugins: [bundleOthers(), ts()],
      }]
    : []),
  ...(existsSync(crdBin)
    ? [{
        input: crdBin,
        external: (id) => external(id) || id.endsWith('/crd/definition/index.js') || id.endsWith('/crd/definition/index.ts'),
        output: { file: 'dist/bin/rxkube-crd.js', format: 'es', banner: '#!/usr/bin/env node', paths: (id) => (id.includes('/crd/definition/index') ? '../esm/crd.js' : id) },
        plugins: [bundleOthers(), ts()],
      }]
    : []),
];
