// docs/tutorial.md's custom resource, controller and RBAC are examples/backup's files, byte for
// byte: the specs of examples/backup (its test, the CRD through kubectl, its RBAC) test what the
// tutorial shows, and the tutorial cannot drift from them.
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const tutorial = readFileSync(join(process.cwd(), 'docs', 'tutorial.md'), 'utf8');

/** The content of the tutorial's fence ```ts file=PATH. */
function fence(path: string): string {
  const open = tutorial.indexOf(`\`\`\`ts file=${path}\n`);
  if (open === -1) throw new Error(`docs/tutorial.md has no \`\`\`ts file=${path} block`);
  const start = tutorial.indexOf('\n', open) + 1;
  return tutorial.slice(start, tutorial.indexOf('\n```\n', start) + 1);
}

describe('the tutorial shows examples/backup', () => {
  it.each([
    ['src/backup.ts', 'backup.ts'],
    ['src/backupController.ts', 'backupController.ts'],
    ['src/rbac.ts', 'rbac.ts'],
  ])('%s is examples/backup/%s', (inTutorial, inExamples) => {
    expect(fence(inTutorial)).toBe(readFileSync(join(process.cwd(), 'examples', 'backup', inExamples), 'utf8'));
  });
});
