#!/usr/bin/env node
// Import circles among a folder's TypeScript files (issue 37: every folder's files import one way).
// Reads every `import ... from`, `export ... from`, `import type` and `import('...')` with a
// relative specifier, and prints each strongly connected component of more than one file (or a
// file importing itself). Type-only imports count: a circle of types still ties the files together.
//
//   node scripts/check-import-cycles.mjs [dir=lib/testing] [--layers]
//
// With --layers (for lib/testing/fakeApiServer) it also checks the folder order the fake API server
// is built in (docs/architecture.md): a folder imports only folders below it in LAYERS.
// Exit code 1 when a circle (or a layer violation) is found.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every .ts file under `dir` (no declaration files). */
export function tsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

/** The files `file` imports with a relative specifier, resolved (`.js` -> `.ts`), within `files`. */
export function importsOf(file, files) {
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const out = new Set();
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec || !spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
    const candidates = [target, `${target}.ts`, join(target, 'index.ts')];
    const hit = candidates.find((c) => files.has(c));
    if (hit) out.add(hit);
  }
  return [...out];
}

/** Tarjan's strongly connected components of the import graph: the circles. */
export function importCycles(dir) {
  const files = new Set(tsFiles(dir));
  const graph = new Map([...files].map((f) => [f, importsOf(f, files)]));
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (v) => {
    // Iterative over each node's edges would be longer; the import graph is shallow enough.
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v).includes(v)) cycles.push(scc.map((f) => relative(ROOT, f)).sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return { cycles, graph };
}

/**
 * The fake API server's folders, lowest first: a file in a folder imports only files of its own
 * folder or of folders listed before it. `.` is the top level (the server and its public types),
 * which may import everything; the vocabulary files (status, resources, random) are at the bottom.
 */
export const LAYERS = [
  ['vocabulary', ['status.ts', 'resources.ts', 'random.ts', 'writeOptions.ts']],
  ['storage', ['storage/']],
  ['watch', ['watch/']],
  ['fields', ['fields/']],
  ['schema', ['schema/']],
  ['printers', ['printers/']],
  ['rbac', ['rbac/']],
  ['admission', ['admission/']],
  ['registry', ['registry/']],
  ['controllers', ['controllers/']],
  ['discovery', ['discovery/']],
  ['wire', ['wire/']],
  ['auth', ['auth/']],
  ['faults', ['faults/']],
  ['handlers', ['handlers/']],
];

/** The layer of a file of the fake API server (`Infinity`: the top level, which may import all). */
export function layerOf(rel) {
  const i = LAYERS.findIndex(([, prefixes]) => prefixes.some((p) => (p.endsWith('/') ? rel.startsWith(p) : rel === p)));
  return i >= 0 ? i : Number.POSITIVE_INFINITY;
}

/** Imports from a folder to one above it. */
export function layerViolations(dir, graph) {
  const out = [];
  for (const [file, imports] of graph) {
    const from = relative(dir, file).split(sep).join('/');
    if (from.startsWith('..')) continue;
    for (const target of imports) {
      const to = relative(dir, target).split(sep).join('/');
      if (to.startsWith('..')) continue;
      if (layerOf(to) > layerOf(from)) out.push(`${from} -> ${to}`);
    }
  }
  return out.sort();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dir = resolve(ROOT, args.find((a) => !a.startsWith('--')) ?? 'lib/testing');
  const { cycles, graph } = importCycles(dir);
  for (const c of cycles) console.log(`circle: ${c.join(' <-> ')}`);
  const violations = args.includes('--layers') ? layerViolations(dir, graph) : [];
  for (const v of violations) console.log(`layer: ${v}`);
  if (cycles.length === 0 && violations.length === 0) console.log(`no import circles in ${relative(ROOT, dir) || '.'}${args.includes('--layers') ? ', layers in order' : ''}`);
  process.exitCode = cycles.length + violations.length > 0 ? 1 : 0;
}
