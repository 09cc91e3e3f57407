import { RxkubeError } from '../errors.js';

/**
 * A {@link jsonPatch} or {@link mergePatch} recipe returned a promise (an `async` recipe, or one
 * returning a thenable). Recipes must be synchronous: the draft is only valid until the recipe
 * returns, so what an async recipe changes after its first `await` would be missing from the
 * patch (and would fail on a revoked draft). Nothing was built; the promise's own outcome is
 * ignored. Do the awaiting first, then patch with a synchronous recipe.
 *
 * @example
 * ```ts
 * const ready = await countReadyPods(); // not inside the recipe
 * const body = jsonPatch(deployment, (d) => { d.metadata!.labels = { ...d.metadata!.labels, ready: String(ready) }; });
 * ```
 */
export class PatchRecipeError extends RxkubeError {
  constructor() {
    super(
      'PatchRecipeError',
      'the patch recipe returned a promise: recipes must be synchronous (the draft is revoked when the recipe returns, so changes after an await would be lost); await first, then patch',
    );
  }
}
