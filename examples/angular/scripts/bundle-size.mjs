// Reports the production bundle's size and each package's share of it, from the esbuild metafile
// that `ng build --stats-json` writes, and rxkube's size on its own (minified, gzipped). Fails if a
// Node built-in reached the browser bundle. Run after `npx ng build --stats-json`.
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild'; // comes with @angular/build

const out = 'dist/rxkube-angular-example';
const stats = JSON.parse(readFileSync(join(out, 'browser-stats.json'), 'utf8'));
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const pkgOf = (input) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return m ? m[1] : input.startsWith('src/') ? '(app)' : '(other)';
};

const js = readdirSync(join(out, 'browser')).filter((f) => f.endsWith('.js'));
let raw = 0;
let gz = 0;
const byPkg = new Map();
for (const file of js) {
  const bytes = readFileSync(join(out, 'browser', file));
  raw += bytes.length;
  gz += gzipSync(bytes).length;
  const output = Object.entries(stats.outputs).find(([p]) => p.endsWith(`/${file}`) || p === file)?.[1];
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
    byPkg.set(pkgOf(input), (byPkg.get(pkgOf(input)) ?? 0) + bytesInOutput);
  }
}
console.log(`production bundle: ${js.length} JS file(s), ${kb(raw)} raw, ${kb(gz)} gzipped`);
for (const [pkg, bytes] of [...byPkg].sort((a, b) => b[1] - a[1])) {
  console.log(`  ${pkg.padEnd(28)} ${kb(bytes).padStart(9)}  ${((100 * bytes) / raw).toFixed(1)}%`);
}

// rxkube alone: what this app imports, minified, with rxjs left out (the app has it anyway).
const alone = await build({
  stdin: { contents: readFileSync('src/app/pods.service.ts', 'utf8').match(/import \{[^}]*\} from 'rxkube';/)[0].replace(/type \w+,?\s*/g, '').replace('import', 'export'), resolveDir: '.', loader: 'js' },
  bundle: true,
  minify: true,
  format: 'esm',
  write: false,
  external: ['rxjs', 'rxjs/*'],
});
const code = alone.outputFiles[0].contents;
console.log(`rxkube on its own (the app's imports, rxjs external): ${kb(code.length)} raw, ${kb(gzipSync(code).length)} gzipped`);

// rxkube's share, in bytes: 88.8 kB after issue 36 (94.3 kB before), then about 300 bytes for
// informer.lag() (issue 38) and plainCopy (issue 34), then about 7.1 kB for the cut of managedFields
// before parse (issue 37), the informers' RBAC declarations (issue 35) and the tracing option (issue 38).
// Growth fails: see `node scripts/check-browser-bundle.mjs --detail` at the repository's root for what grew.
const RXKUBE_BUDGET = 97_000;
const rxkubeBytes = byPkg.get('rxkube') ?? 0;
if (rxkubeBytes > RXKUBE_BUDGET) {
  console.error(`rxkube is ${kb(rxkubeBytes)} of the bundle, over its budget of ${kb(RXKUBE_BUDGET)}`);
  process.exit(1);
}

const nodeInputs = Object.keys(stats.inputs).filter((p) => p.startsWith('node:') || builtinModules.includes(p));
if (nodeInputs.length) {
  console.error(`Node built-ins in the browser bundle: ${nodeInputs.join(', ')}`);
  process.exit(1);
}
