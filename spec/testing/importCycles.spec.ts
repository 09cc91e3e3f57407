import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// rxkube/testing's files import one way (issue 37): no circle among them, and the fake API
// server's folders in the order of docs/architecture.md (handlers above admission and registry,
// registry above storage). scripts/check-import-cycles.mjs decides; these run it.
const SCRIPT = join(process.cwd(), 'scripts', 'check-import-cycles.mjs');

const run = (...args: string[]): Promise<{ code: number; out: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { cwd: process.cwd() }, (err, stdout) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout });
    });
  });

describe('import circles', () => {
  it('lib/testing has none', async () => {
    const { code, out } = await run('lib/testing');
    expect(out).not.toContain('circle:');
    expect(code).toBe(0);
  });

  it('the fake API server imports its folders one way (handlers -> admission/registry -> storage)', async () => {
    const { code, out } = await run('lib/testing/fakeApiServer', '--layers');
    expect(out.split('\n').filter((l) => l.startsWith('layer:') || l.startsWith('circle:'))).toEqual([]);
    expect(code).toBe(0);
  });

  it('a circle, even of type-only imports, and an import up the layers are found', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxkube-cycles-'));
    try {
      mkdirSync(join(dir, 'storage'));
      mkdirSync(join(dir, 'registry'));
      writeFileSync(join(dir, 'storage', 'a.ts'), "import type { B } from '../registry/b.js';\nexport type A = B;\n");
      writeFileSync(join(dir, 'registry', 'b.ts'), "import type { A } from '../storage/a.js';\nexport type B = { a?: A };\n");
      const { code, out } = await run(dir, '--layers');
      expect(out).toContain('circle:');
      expect(out).toContain('layer: storage/a.ts -> registry/b.ts');
      expect(code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
