import type { JsonObject } from '../../../resources.js';
import { badRequest } from '../../../status.js';
import { QuantityFormatError } from './resourceLists.js';

/**
 * Wraps a type's defaulting so a value kube fails to decode (a quantity that does not parse)
 * throws kube's 400, `<Kind> in version "<v>" cannot be handled as a <Kind>: <why>`, a
 * `StatusError` the pipeline answers with.
 *
 * @example
 * ```ts
 * const defaults = decodingDefaults('Pod', (pod) => defaultPod(pod));
 * ```
 */
export function decodingDefaults(kind: string, apply: (obj: JsonObject) => void): (obj: JsonObject) => void {
  return (obj) => {
    try {
      apply(obj);
    } catch (e) {
      if (!(e instanceof QuantityFormatError)) throw e;
      const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
      const version = apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
      throw badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${e.message}`);
    }
  };
}
