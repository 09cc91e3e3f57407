import { ClientNodeLoadError } from './clientNodeLoadError.js';

/** The module @kubernetes/client-node, as `import()` gives it. */
export type ClientNodeModule = typeof import('@kubernetes/client-node');

// What CommonJS loaders say when they meet an ES module they cannot load: Node before 20.19
// (ERR_REQUIRE_ESM) and jest's CommonJS runtime without --experimental-vm-modules.
const esmInCommonJs = /ERR_REQUIRE_ESM|Must use import to load ES Module|dynamic import callback was invoked without --experimental-vm-modules|Cannot use import statement outside a module/;

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
