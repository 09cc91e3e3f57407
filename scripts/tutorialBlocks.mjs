// docs/tutorial.md's fenced blocks, as scripts/check-tutorial.mjs and scripts/check-commonjs.mjs (and
// the Bun and Deno legs, scripts/check-runtime.mjs) read them. Fences (words after the language;
// GitHub ignores them when rendering):
//   ```ts file=src/backup.ts        a whole file of the tutorial's project (ES modules)
//   ```sh run                       commands the reader runs in that project, in order
//   ```js commonjs=jest.config.js   a whole file of the CommonJS project ("In a CommonJS project")
//   ```sh commonjs-run              commands the reader runs in the CommonJS project
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FENCE = /^```(\w+)\s*(.*)$/;

/** The blocks of docs/tutorial.md (or `path`): { lang, flags, code, line }. */
export function tutorialBlocks(path = join(ROOT, 'docs', 'tutorial.md')) {
  const lines = readFileSync(path, 'utf8').split('\n');
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    if (end === lines.length) throw new Error(`docs/tutorial.md:${i + 1}: unclosed fence`);
    found.push({ lang: open[1], flags: open[2].trim().split(/\s+/).filter(Boolean), code: lines.slice(i + 1, end).join('\n'), line: i + 1 });
    i = end;
  }
  return found;
}

/** The value of a `key=value` flag of a block, or undefined. */
export const flag = (block, key) => block.flags.find((f) => f.startsWith(`${key}=`))?.slice(key.length + 1);

/** Writes the blocks' files (path from the `key=` flag, filtered by `keep`) into `dir`; returns their paths. */
export function writeFiles(blocks, key, dir, keep = () => true) {
  const written = [];
  for (const b of blocks) {
    const path = flag(b, key);
    if (path === undefined || !keep(path)) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), `${b.code}\n`);
    written.push(path);
  }
  return written;
}

/** The commands of the blocks flagged `flagName`, one per line, comments dropped: { command, line }. */
export function commands(blocks, flagName) {
  return blocks
    .filter((b) => b.lang === 'sh' && b.flags.includes(flagName))
    .flatMap((b) =>
      b.code
        .split('\n')
        .map((raw) => raw.replace(/\s+#.*$/, '').trim())
        .filter((c) => c !== '' && !c.startsWith('#'))
        .map((command) => ({ command, line: b.line })),
    );
}
