import { RxkubeError } from '../errors.js';

/**
 * An {@link apply} that cannot be sent: no `fieldManager`, or an object without `apiVersion`,
 * `kind` or `metadata.name` (or, for a namespaced resource, `metadata.namespace`), or of another
 * group/version or kind than the resource. Raised before any request, so nothing was written.
 *
 * @example
 * ```ts
 * await apply(kc, configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }, { fieldManager: '' });
 * // rejects: ApplyInputError: apply needs a fieldManager ...
 * ```
 */
export class ApplyInputError extends RxkubeError {
  constructor(message: string) {
    super('ApplyInputError', message);
  }
}
