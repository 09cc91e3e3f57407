// docs/angular.md shows the example's files in full: each code block right after a line
// `<!-- file: examples/angular/PATH -->` must be that file, byte for byte (the build compiles the
// file, so the block compiles). Run from examples/angular.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const repo = join(import.meta.dirname, '..', '..', '..');
const doc = readFileSync(join(repo, 'docs', 'angular.md'), 'utf8');
const blocks = [...doc.matchAll(/<!-- file: (\S+) -->\n```[^\n]*\n([\s\S]*?)```\n/g)];
const stale = blocks.filter(([, path, code]) => readFileSync(join(repo, path), 'utf8') !== code).map(([, path]) => path);
if (blocks.length === 0 || stale.length) {
  console.error(blocks.length ? `docs/angular.md shows stale copies of: ${stale.join(', ')}` : 'docs/angular.md shows no example file');
  process.exit(1);
}
console.log(`docs/angular.md: ${blocks.length} example files shown, all current`);
