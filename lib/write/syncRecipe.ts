import type { Draft } from 'immer';
import { isPromiseLike } from '../meta/isPromiseLike.js';
import { PatchRecipeError } from './patchRecipeError.js';

/**
 * Internal: runs a patch recipe on a draft, refusing one that returns a thenable with a
 * {@link PatchRecipeError}: its later changes would miss the patch and hit a revoked draft.
 */
export function runSyncRecipe<T>(recipe: (draft: Draft<T>) => unknown, draft: Draft<T>): void {
  const result = recipe(draft);
  if (isPromiseLike(result)) {
    // Its rejection (a revoked draft after the await) would otherwise be unhandled.
    result.then(undefined, () => undefined);
    throw new PatchRecipeError();
  }
}
