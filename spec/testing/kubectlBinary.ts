// The kubectl binary of the kubectl proof tests: $KUBECTL, PATH, or scripts/ensure-kubectl.sh
// (Debian's kubernetes-client unpacked into .cache). Tests using it FAIL, not skip, without one.
import { execFile, execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

export function findKubectl(): string | undefined {
  const candidates = [process.env.KUBECTL, ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'kubectl'))];
  for (const c of candidates) {
    if (!c) continue;
    try {
      accessSync(c, constants.X_OK);
      return c;
    } catch {
      // next candidate
    }
  }
  try {
    const out = execFileSync('bash', [join(process.cwd(), 'scripts', 'ensure-kubectl.sh')], { encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'inherit'] });
    return out.trim().split('\n').pop() || undefined;
  } catch {
    return undefined;
  }
}

/** Runs kubectl with a kubeconfig and a cache dir, asynchronously (the server runs in this process). */
export async function runKubectl(kubectl: string | undefined, dir: string, ...args: string[]): Promise<string> {
  if (!kubectl) throw new Error('no kubectl: set KUBECTL or put kubectl on PATH (scripts/ensure-kubectl.sh fetches one)');
  const all = ['--kubeconfig', join(dir, 'config'), '--cache-dir', join(dir, 'cache'), '--request-timeout=20s', ...args];
  const { stdout } = await execFileP(kubectl, all, { timeout: 30000, encoding: 'utf8' });
  return stdout;
}
