import { RxkubeError } from '../errors.js';

/**
 * @kubernetes/client-node could not be loaded into a CommonJS program: it ships ES modules only.
 * Says what to do: Node 20.19 or later (where `require` loads ES modules), or, under jest's CommonJS
 * runtime, let jest compile client-node (see docs/tutorial.md, "In a CommonJS project"), or jest's
 * ES module mode. The loader's own error is the `cause`.
 *
 * @example
 * ```ts
 * try { await startFakeApiServer(); } catch (e) { if (e instanceof ClientNodeLoadError) console.error(e.message); }
 * ```
 */
export class ClientNodeLoadError extends RxkubeError {
  constructor(cause: unknown) {
    const said = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    super(
      'ClientNodeLoadError',
      `cannot load @kubernetes/client-node, which ships ES modules only, into this CommonJS program (${said}): ` +
        'on Node use 20.19 or later; under jest without --experimental-vm-modules let jest compile it ' +
        '(transformIgnorePatterns: see "In a CommonJS project" in rxkube\'s docs/tutorial.md), or run jest in its ES module mode',
      { cause },
    );
  }
}
