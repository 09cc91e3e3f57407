import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { RxkubeError } from '../errors.js';
import { clientNodeProblem } from './clientNodeCompatibility.js';

/**
 * This Node and @kubernetes/client-node cannot work together (see `clientNodeProblem`); the message
 * is one sentence saying what to install.
 *
 * @example
 * ```ts
 * try { checkClientNode(); } catch (e) { if (e instanceof ClientNodeVersionError) console.error(e.message); }
 * ```
 */
export class ClientNodeVersionError extends RxkubeError {
  constructor(message: string) {
    super('ClientNodeVersionError', message);
  }
}

/**
 * The running Node's version and the installed @kubernetes/client-node's, as rxkube's own imports
 * resolve it; the client-node version is undefined when it cannot be read.
 *
 * @example
 * ```ts
 * installedVersions(); // { node: '20.20.2', clientNode: '1.4.0' }
 * ```
 */
export function installedVersions(): { node: string; clientNode: string | undefined } {
  let clientNode: string | undefined;
  try {
    const require = createRequire(import.meta.url);
    const file = require.resolve('@kubernetes/client-node/package.json');
    clientNode = (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
  } catch {
    clientNode = undefined; // not resolvable this way: the import itself will say what is wrong
  }
  return { node: process.versions.node, clientNode };
}

/**
 * Throws {@link ClientNodeVersionError} before @kubernetes/client-node is loaded, when loading it
 * would crash (client-node 2 on Node < 22.19) or it is too old for rxkube.
 *
 * @example
 * ```ts
 * checkClientNode(); // then: await import('@kubernetes/client-node')
 * ```
 */
export function checkClientNode(versions = installedVersions()): void {
  if (versions.clientNode === undefined) return;
  const problem = clientNodeProblem(versions.node, versions.clientNode);
  if (problem) throw new ClientNodeVersionError(problem);
}
