// Starts rxkube-fake-apiserver from its TypeScript source (through tsx) as a separate process, for
// the specs that test the bin itself and the ones that run the demo against it.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

export const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
export const BIN = join(process.cwd(), 'lib', 'bin', 'rxkube-fake-apiserver.ts');

/** A running bin: the process, the URL it printed and its exit code once it exits. */
export interface BinProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: string;
  readonly exited: Promise<number | null>;
}

/** Starts the bin; resolves with its URL once it prints `listening on URL` (bounded at 45 s). */
// tsx compiles the whole server on a cold cache: 18-22 s were seen on a loaded 2-core machine.
export const BIN_START_TIMEOUT = 45_000;
export function startFakeApiServerBin(args: string[]): Promise<BinProcess> {
  return new Promise((resolve, reject) => {
    // node with tsx's loader rather than the tsx CLI: the CLI relays signals to its child and, when the
    // child has not answered within 30 ms (a loaded machine), kills it and exits 143 itself.
    const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    let out = '';
    let err = '';
    // A bin that does not start in time is killed: no process outlives the spec that started it.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "listening on" line; stdout: ${out} stderr: ${err}`));
    }, BIN_START_TIMEOUT);
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening on (\S+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, exited });
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`exited early; stdout: ${out} stderr: ${err}`));
    });
  });
}
