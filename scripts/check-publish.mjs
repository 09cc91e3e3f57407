// Reads `npm publish --dry-run` (stdout and stderr, piped in) and fails on anything npm would
// correct, warn about or leave out: every `npm warn` line but the one a dry run without credentials
// always prints (CI never logs in), an `npm error`, a tarball without the files of every entry of
// package.json's exports (scripts/entryPoints.mjs) and its bin, or no `+ name@version` line.
//   npm publish --dry-run --ignore-scripts 2>&1 | node scripts/check-publish.mjs
import { readFileSync } from 'node:fs';
import { entryPoints } from './entryPoints.mjs';
import { ROOT } from './tutorialBlocks.mjs';

const pkg = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8'));
const output = readFileSync(0, 'utf8');
const lines = output.split('\n');
const problems = lines.filter((l) => /^npm (warn|error|ERR)/i.test(l) && !/requires you to be logged in/.test(l));
const listed = new Set(lines.map((l) => /^npm notice\s+[\d.]+\s*[kMG]?B\s+(\S+)$/.exec(l)?.[1]).filter(Boolean));
const { js, types } = entryPoints(pkg);
const needed = [
  ...Object.keys(js).flatMap((n) => [`dist/esm/${n}.js`, `dist/cjs/${n}.cjs`]),
  ...Object.keys(types).flatMap((n) => [`dist/types/${n}.d.ts`, `dist/types/${n}.d.cts`]),
  ...Object.values(pkg.bin ?? {}),
  'package.json',
  'README.md',
  'CHANGELOG.md',
];
const missing = needed.filter((f) => !listed.has(f));
if (!lines.some((l) => l.trim() === `+ ${pkg.name}@${pkg.version}`)) problems.push(`no "+ ${pkg.name}@${pkg.version}" line: npm did not get to the publish step`);
if (missing.length > 0) problems.push(`the tarball lacks ${missing.join(', ')} (${listed.size} files listed)`);
if (problems.length > 0) {
  console.error(`${output}\ncheck-publish: npm publish --dry-run is not clean:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`publish ok: npm publish --dry-run of ${pkg.name}@${pkg.version}, ${listed.size} files, no warnings (but the dry run's login notice)`);
