// The package's entry points, read from package.json's `exports`, for the build (rollup.config.mjs), the
// API report (scripts/api-report.mjs) and the checks that load every entry (check-dist, the CommonJS
// project): a new entry in `exports` is built, reported and checked without an edit to any of them.
//
//   "./testing": { "import": { "default": "./dist/esm/testing.js", "types": "./dist/types/testing.d.ts" }, ... }
//   -> specifier 'rxkube/testing', build entry testing: lib/testing/index.ts, types entry testing.
// `index` and `node` are lib/index.ts and lib/node.ts, `crd` lib/crd/definition/index.ts; any other NAME
// is lib/NAME/index.ts.

/** Every string value under an exports entry (its conditions, nested). */
function targets(value) {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(targets);
  return [];
}

// rxkube/crd's source sits beside the CRD-following informer code in lib/crd.
const SOURCES = { crd: 'lib/crd/definition/index.ts' };
const sourceOf = (name) => SOURCES[name] ?? (name === 'index' || name === 'node' ? `lib/${name}.ts` : `lib/${name}/index.ts`);

/**
 * @param {{ name: string, exports: Record<string, unknown> }} pkg
 * @returns {{ js: Record<string, string>, types: Record<string, string>, specifiers: { specifier: string, types: string }[] }}
 */
export function entryPoints(pkg) {
  const js = {};
  const types = {};
  const specifiers = [];
  for (const [subpath, value] of Object.entries(pkg.exports)) {
    if (subpath === './package.json') continue;
    const all = targets(value);
    for (const t of all) {
      const m = /^\.\/dist\/(?:esm\/(.+)\.js|cjs\/(.+)\.cjs)$/.exec(t);
      if (m) js[m[1] ?? m[2]] = sourceOf(m[1] ?? m[2]);
    }
    const typeFiles = [...new Set(all.map((t) => /^\.\/dist\/types\/(.+)\.d\.ts$/.exec(t)?.[1]).filter(Boolean))];
    for (const name of typeFiles) types[name] = sourceOf(name === 'node' ? 'index' : name);
    if (typeFiles.length !== 1) throw new Error(`package.json exports["${subpath}"]: expected one ./dist/types/NAME.d.ts, found ${typeFiles.length}`);
    specifiers.push({ specifier: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`, types: typeFiles[0] });
  }
  return { js, types, specifiers };
}
