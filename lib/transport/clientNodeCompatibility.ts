/**
 * Why this Node and this @kubernetes/client-node do not work together, as one sentence saying what
 * to install, or undefined when they do. client-node 2.x loads undici 7, which needs Node 22.19 or
 * later: on an older Node, loading client-node 2 crashes the process (`Cannot read properties of
 * undefined (reading 'bind')`) before anything can catch it. rxkube needs client-node 1.4 or later.
 *
 * @example
 * ```ts
 * clientNodeProblem('20.20.2', '2.0.1'); // "@kubernetes/client-node 2.0.1 needs Node 22.19 or later ..."
 * clientNodeProblem('24.1.0', '2.0.1');  // undefined
 * ```
 */
export function clientNodeProblem(nodeVersion: string, clientNodeVersion: string): string | undefined {
  const node = semver(nodeVersion);
  const client = semver(clientNodeVersion);
  if (!node || !client) return undefined; // unknown versions: do not guess
  if (client[0] < 1 || (client[0] === 1 && client[1] < 4)) {
    return (
      `rxkube needs @kubernetes/client-node 1.4 or later, and ${clientNodeVersion} is installed: ` +
      `run \`npm install @kubernetes/client-node@${atLeast(node, [22, 19]) ? '^2.0.1' : '~1.4.0'}\`.`
    );
  }
  if (client[0] >= 2 && !atLeast(node, [22, 19])) {
    return (
      `@kubernetes/client-node ${clientNodeVersion} needs Node 22.19 or later, and this is Node ${nodeVersion}: ` +
      'run `npm install @kubernetes/client-node@~1.4.0` (it runs on Node 20 and later), or upgrade Node.'
    );
  }
  return undefined;
}

function semver(v: string): [number, number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function atLeast(v: [number, number, number], min: [number, number]): boolean {
  return v[0] > min[0] || (v[0] === min[0] && v[1] >= min[1]);
}
