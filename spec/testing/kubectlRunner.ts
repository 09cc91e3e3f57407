// A real kubectl against a fake API server: $KUBECTL, PATH, or scripts/ensure-kubectl.sh (which
// fetches Debian's kubernetes-client into .cache). Specs using it FAIL, not skip, without one.
import { execFile, execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

export function findKubectl(): string | undefined {
  for (const c of [process.env.KUBECTL, ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'kubectl'))]) {
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

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs kubectl with the kubeconfig and a private cache dir; never throws on a non-zero exit. */
export function kubectlRunner(kubectl: string | undefined, kubeconfig: string, cacheDir: string): (...args: string[]) => Promise<KubectlResult> {
  return async (...args) => {
    if (!kubectl) throw new Error('no kubectl: set KUBECTL or put kubectl on PATH (scripts/ensure-kubectl.sh fetches one)');
    // Async: the server runs in this process, a blocking exec would starve it.
    try {
      const { stdout, stderr } = await execFileP(kubectl, ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, '--request-timeout=20s', ...args], { timeout: 30000, encoding: 'utf8' });
      return { code: 0, stdout, stderr };
    } catch (e) {
      const err = e as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof err.code === 'number' ? err.code : 1, stdout: err.stdout ?? '', stderr: err.stderr ?? String(e) };
    }
  };
}

/**
 * Runs kubectl with `dir`'s kubeconfig (`dir/config`) and cache: its stdout, or, on a non-zero
 * exit, a rejection carrying the {@link KubectlResult} (`code`, `stdout`, `stderr`).
 */
export async function runKubectl(kubectl: string | undefined, dir: string, ...args: string[]): Promise<string> {
  const r = await kubectlRunner(kubectl, join(dir, 'config'), join(dir, 'cache'))(...args);
  if (r.code !== 0) throw Object.assign(new Error(`kubectl ${args.join(' ')} exited ${r.code}: ${r.stderr}`), r);
  return r.stdout;
}
