import { describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import { clientNodeProblem } from '../../lib/transport/clientNodeCompatibility.js';
import {
  ClientNodeVersionError,
  checkClientNode,
  installedVersions,
} from '../../lib/transport/clientNodeCheck.js';
import { RxkubeError } from '../../lib/errors.js';

describe('the client-node / Node version guard (before client-node is loaded)', () => {
  it.each([
    ['20.20.2', '2.0.1', 'needs Node 22.19 or later, and this is Node 20.20.2'],
    ['22.18.0', '2.0.0', 'needs Node 22.19 or later'],
    ['20.20.2', '1.3.0', 'rxkube needs @kubernetes/client-node 1.4 or later'],
    ['24.21.0', '0.22.3', '`npm install @kubernetes/client-node@^2.0.1`'],
  ])('Node %s with client-node %s: one sentence saying what to install', (node, client, expected) => {
    const problem = clientNodeProblem(node, client);
    expect(problem).toContain(expected);
    expect(problem).toMatch(/npm install @kubernetes\/client-node@/);
    expect(problem?.split(/\.\s+[A-Z]/)).toHaveLength(1); // one sentence
  });

  it.each([
    ['20.20.2', '1.4.0'],
    ['22.19.0', '2.0.1'],
    ['24.21.0', '2.0.1'],
    ['24.21.0', '1.4.0'],
    ['v20.0.0', 'not-a-version'],
  ])('Node %s with client-node %s works', (node, client) => {
    expect(clientNodeProblem(node, client)).toBeUndefined();
  });

  it('checkClientNode throws a typed error with that sentence', () => {
    let caught: unknown;
    try {
      checkClientNode({ node: '20.20.2', clientNode: '2.0.1' });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ClientNodeVersionError);
    expect(caught).toBeInstanceOf(RxkubeError);
    expect((caught as Error).message).toContain('npm install @kubernetes/client-node@~1.4.0');
    expect(() => checkClientNode({ node: '20.20.2', clientNode: undefined })).not.toThrow();
  });

  it('reads the versions this process really has (the CI legs: Node 20 + 1.4, Node 24 + 2.0)', () => {
    const require = createRequire(import.meta.url);
    const real = (require('@kubernetes/client-node/package.json') as { version: string }).version;
    expect(installedVersions()).toEqual({ node: process.versions.node, clientNode: real });
    expect(() => checkClientNode()).not.toThrow();
  });
});
