// Builds ESM + CJS + type declarations for `rxkube`, `rxkube/testing`, `rxkube/prometheus` and `rxkube/crd`, and the bins.
import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';
import { builtinModules } from 'node:module';
import { readFileSync, existsSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const deps = [...Object.keys(pkg.peerDependencies ?? {}), ...Object.keys(pkg.dependencies ?? {})];
const external = (id) =>
  id.startsWith('node:') ||
  builtinModules.includes(id) ||
  deps.some((d) => id === d || id.startsWith(`${d}/`)) ||
  id === 'rxkube' || id.startsWith('rxkube/');

const entries = { index: 'lib/index.ts', testing: 'lib/testing/index.ts', prometheus: 'lib/prometheus/index.ts', crd: 'lib/crd/definition/index.ts' };
// inlineSources: the maps carry the TypeScript they point at (lib/ is not in the package).
const ts = () => typescript({ tsconfig: './tsconfig.json', declaration: false, sourceMap: true, inlineSources: true, outDir: undefined, rootDir: undefined, include: ['lib/**/*.ts'] });

const bin = 'lib/bin/rxkube-fake-apiserver.ts';
// Each bin imports its entry (rxkube/testing, rxkube/crd) from the package's own ESM build.
const crdBin = 'lib/bin/rxkube-crd.ts';
// `node`: the `rxkube` that Node loads (the `node` export condition): the client-node check, then index.
const jsEntries = { ...entries, node: 'lib/node.ts' };
export default [
  {
    input: jsEntries,
    external,
    output: [
      { dir: 'dist/esm', format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: true },
      { dir: 'dist/cjs', format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs', sourcemap: true, exports: 'named' },
    ],
    plugins: [ts()],
  },
  {
    input: entries,
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
        plugins: [ts()],
      }]
    : []),
  ...(existsSync(crdBin)
    ? [{
        input: crdBin,
        external: (id) => external(id) || id.endsWith('/crd/definition/index.js') || id.endsWith('/crd/definition/index.ts'),
        output: { file: 'dist/bin/rxkube-crd.js', format: 'es', banner: '#!/usr/bin/env node', paths: (id) => (id.includes('/crd/definition/index') ? '../esm/crd.js' : id) },
        plugins: [ts()],
      }]
    : []),
];
