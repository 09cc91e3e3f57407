// Every folder's files import one way: no import circle in lib/ (lib/testing, the fake API
// server, has its own and is left out here). A new circle fails this test, naming its files.
import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importCycles } from './support/importCycles.js';

describe('import circles', () => {
  it('lib/ outside lib/testing has none', () => {
    expect(importCycles('lib', /^testing\//)).toEqual([]);
  });

  it('finds one, type-only imports and re-exports included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxkube-cycles-'));
    try {
      mkdirSync(join(dir, 'sub'));
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './sub/b.js';\nexport interface A { b?: B }\n");
      writeFileSync(join(dir, 'sub', 'b.ts'), "export type { A as B } from '../a.js';\n");
      writeFileSync(join(dir, 'c.ts'), "import { a } from './d.js';\nexport const c = a;\n");
      writeFileSync(join(dir, 'd.ts'), 'export const a = 1;\n');
      expect(importCycles(dir)).toEqual([['a.ts', 'sub/b.ts']]);
      expect(importCycles(dir, /^sub\//)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
