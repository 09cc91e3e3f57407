// Proves that the core bundles for the browser: every file under lib/ except the Node-only ones
// (the client-node transport, rxkube/testing, the bin and lib/node.ts, the entry Node loads) is bundled with Node built-ins forbidden.
import { rollup } from 'rollup';
import typescript from '@rollup/plugin-typescript';
import { builtinModules } from 'node:module';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// Files allowed to import Node built-ins (or @kubernetes/client-node, which does); lib/crd/definition is
// rxkube/crd, a build-time entry (it reuses the fake server's CRD validation).
const nodeOnly = [/^lib\/node\.ts$/, /^lib\/crd\/definition\//, /^lib\/testing\//, /^lib\/bin\//, /^lib\/transport\/clientNode/, /^lib\/node\//, /^lib\/prometheus\//];
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
