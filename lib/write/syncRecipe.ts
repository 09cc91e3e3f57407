import type { Draft } from 'immer';
import { PatchRecipeError } from './patchRecipeError.js';

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  v !== null && (typeof v === 'object' || typeof v === 'function') && typeof (v as { then?: unknown }).then === 'function';

/**
 * Internal: runs a patch recipe on a draft, refusing one that returns a thenable with a
 * {@link PatchRecipeError}: its later changes would miss the patch and hit a revoked draft.
 */
export function runSyncRecipe<T>(recipe: (draft: Draft<T>) => unknown, draft: Draft<T>): void {
  const result = recipe(draft);
  if (isThenable(result)) {
    // Its rejection (a revoked draft after the await) would otherwise be unhandled.
    result.then(undefined, () => undefined);
    throw new PatchRecipeError();
  }
}
