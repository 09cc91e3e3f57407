// The one polling helper of the specs that talk to a real server on loopback (not a spec file).

/**
 * Resolves when `predicate` holds, checking every `intervalMs`; rejects after `timeoutMs` with what
 * it waited for (a bound on a test against a real server, not a timing assertion).
 *
 * @example
 * ```ts
 * await waitFor(() => inf.hasSynced(), 'the informer to sync');
 * await waitFor(() => seen.size === 100, () => `100 objects, saw ${seen.size}`, 60_000, 10);
 * ```
 */
export async function waitFor(
  predicate: () => boolean,
  what: string | (() => string),
  timeoutMs = 15_000,
  intervalMs = 5,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
