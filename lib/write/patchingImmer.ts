import { Immer, enablePatches } from 'immer';

// Our own Immer, without auto-freeze: the drafted object is our plain copy and its result is
// thrown away (only the patches are kept), so freezing it would be wasted work.
let immer: Immer | undefined;
/** Internal (not exported from the package): the module's Immer instance, with patches enabled on first use (not at import: no side effect). */
export function patchingImmer(): Immer {
  if (!immer) {
    enablePatches();
    immer = new Immer({ autoFreeze: false });
  }
  return immer;
}

