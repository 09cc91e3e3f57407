// Type-checks every TypeScript code block of README.md and docs/**/*.md against the BUILT package, as a
// user's strict project would: each block is its own ES module importing 'rxkube' and 'rxkube/testing'
// through package.json's exports (dist/types), with @kubernetes/client-node, rxjs and @types/node from
// node_modules. Run after `npm run build`.
//
// Fences (the words after the language, GitHub ignores them when rendering):
//   ```ts            a module of its own: it imports what it uses
//   ```ts continued  appended to the previous checked block of the same file (a walkthrough in steps)
//   ```ts no-check   not checked (keep these rare: pseudo-code, or an excerpt of a type)
//   ```ts file=PATH  a file of docs/tutorial.md's project: compiled and run for real, in a project
//                    of its own made from the packed tarball, by scripts/check-tutorial.mjs
// The reader's own code that blocks call (`reconcile`, `enqueue`, ...) is declared once in
// scripts/doc-snippets.d.ts. Blocks importing @angular/* resolve it from .cache/angular (installed by
// scripts/check-angular-example.sh, which this runs when it is missing).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, '.cache', 'doc-snippets');
const ANGULAR = join(ROOT, '.cache', 'angular', 'node_modules');
const FENCE = /^(\s*)```(ts|typescript|tsx)\b(.*)$/;

function markdownFiles() {
  const docs = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory() && e.name !== 'api') walk(p);
      else if (e.isFile() && e.name.endsWith('.md')) docs.push(p);
    }
  };
  walk(join(ROOT, 'docs'));
  return [join(ROOT, 'README.md'), ...docs.sort()];
}

/** The TypeScript blocks of one markdown file: { line (1-based, first code line), flags, code }. */
export function extractBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) {
      if (/^\s*```/.test(lines[i])) i = closingFence(lines, i); // skip other languages' blocks whole
      continue;
    }
    const indent = open[1].length;
    const end = closingFence(lines, i);
    const code = lines.slice(i + 1, end).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)));
    blocks.push({ line: i + 2, flags: open[3].trim().split(/\s+/).filter(Boolean), code });
    i = end;
  }
  return blocks;
}

function closingFence(lines, start) {
  for (let j = start + 1; j < lines.length; j++) if (/^\s*```\s*$/.test(lines[j])) return j;
  throw new Error(`unclosed code fence at line ${start + 1}`);
}

// Each module: segments map its lines back to the markdown file's lines.
function modules() {
  const out = [];
  let skipped = 0;
  let tutorialFiles = 0;
  for (const md of markdownFiles()) {
    const rel = relative(ROOT, md);
    let previous;
    for (const b of extractBlocks(readFileSync(md, 'utf8'))) {
      if (b.flags.includes('no-check')) {
        skipped++;
        continue;
      }
      if (b.flags.some((f) => f.startsWith('file='))) {
        tutorialFiles++;
        continue;
      }
      if (b.flags.includes('continued')) {
        if (!previous) throw new Error(`${rel}:${b.line - 1}: a 'continued' block with no block before it`);
        previous.segments.push({ at: previous.code.length, line: b.line });
        previous.code.push(...b.code);
        continue;
      }
      const name = `${rel.replace(/[^A-Za-z0-9]+/g, '_')}_${b.line}.ts`;
      previous = { name, md: rel, code: [...b.code], segments: [{ at: 0, line: b.line }] };
      out.push(previous);
    }
  }
  return { out, skipped, tutorialFiles };
}

function mdPosition(mod, codeLine) {
  let seg = mod.segments[0];
  for (const s of mod.segments) if (s.at <= codeLine) seg = s;
  return `${mod.md}:${seg.line + codeLine - seg.at}`;
}

function writeProject(mods) {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(join(OUT, 'node_modules'), { recursive: true });
  // 'rxkube' is this package, resolved through its package.json exports: what a user's project gets.
  symlinkSync(relative(join(OUT, 'node_modules'), ROOT), join(OUT, 'node_modules', 'rxkube'), 'dir');
  if (existsSync(ANGULAR)) symlinkSync(join(ANGULAR, '@angular'), join(OUT, 'node_modules', '@angular'), 'dir');
  writeFileSync(join(OUT, 'package.json'), JSON.stringify({ name: 'doc-snippets', private: true, type: 'module' }));
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      experimentalDecorators: true, // Angular's decorators, as the Angular CLI compiles them
      useDefineForClassFields: false,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules', '@types')],
    },
    files: ['prelude.d.ts', ...mods.map((m) => m.name)],
  };
  writeFileSync(join(OUT, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  writeFileSync(join(OUT, 'prelude.d.ts'), readFileSync(join(ROOT, 'scripts', 'doc-snippets.d.ts')));
  for (const m of mods) writeFileSync(join(OUT, m.name), [...m.code, 'export {};', ''].join('\n'));
}

const { out: mods, skipped, tutorialFiles } = modules();
if (!existsSync(join(ROOT, 'dist', 'types', 'index.d.ts'))) {
  console.error('check-doc-snippets: dist/ is missing; run `npm run build` first.');
  process.exit(1);
}
if (!existsSync(ANGULAR) && mods.some((m) => m.code.some((l) => /from '@angular\//.test(l)))) {
  execFileSync('bash', [join(ROOT, 'scripts', 'check-angular-example.sh'), '--types-only'], { stdio: 'inherit' });
}
writeProject(mods);
let output = '';
try {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', OUT], {
    encoding: 'utf8',
    cwd: OUT, // tsc then names the files bare, as `byName` knows them
  });
} catch (e) {
  output = `${e.stdout ?? ''}${e.stderr ?? ''}`;
}
if (output.trim() !== '') {
  const byName = new Map(mods.map((m) => [m.name, m]));
  // tsc prints `file.ts(line,col): error TSnnnn: ...`; point at the markdown line instead.
  const mapped = output.replace(/^(?:.*[\\/])?([^\s(\\/]+\.ts)\((\d+),(\d+)\)/gm, (all, file, line, col) => {
    const mod = byName.get(file);
    return mod ? `${mdPosition(mod, Number(line) - 1)}:${col}` : all;
  });
  console.error(mapped.trimEnd());
  console.error(`check-doc-snippets: TypeScript blocks in the docs do not compile (see above).`);
  process.exit(1);
}
console.log(`doc snippets ok: ${mods.length} TypeScript blocks compiled against dist (${skipped} marked no-check, ${tutorialFiles} tutorial files checked by check-tutorial.mjs)`);
