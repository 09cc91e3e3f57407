import { RxkubeError } from '../errors.js';

/** The module @kubernetes/client-node, as `import()` gives it. */
export type ClientNodeModule = typeof import('@kubernetes/client-node');

// What CommonJS loaders say when they meet an ES module they cannot load: Node before 20.19
// (ERR_REQUIRE_ESM) and jest's CommonJS runtime without --experimental-vm-modules.
const esmInCommonJs = /ERR_REQUIRE_ESM|Must use import to load ES Module|dynamic import callback was invoked without --experimental-vm-modules|Cannot use import statement outside a module/;

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

/**
 * Loads @kubernetes/client-node: `import()` in rxkube's ES module build, `require` in its CommonJS
 * build (where jest's CommonJS runtime cannot run an `import()`); a CommonJS loader that cannot load
 * an ES module fails as a {@link ClientNodeLoadError} saying what to do.
 *
 * @example
 * ```ts
 * const { KubeConfig } = await loadClientNode();
 * ```
 */
export async function loadClientNode(): Promise<ClientNodeModule> {
  try {
    return await import('@kubernetes/client-node');
  } catch (cause) {
    const text = cause instanceof Error ? `${(cause as { code?: unknown }).code ?? ''} ${cause.message}` : String(cause);
    if (esmInCommonJs.test(text)) throw new ClientNodeLoadError(cause);
    throw cause;
  }
}
