import { RxkubeError } from '../errors.js';

/**
 * Where rxkube takes "a KubeConfig or a Transport" (`listWatch`, `sharedInformerFactory`,
 * `leaseLock`, `sharding`), it was given neither: not an object with a `request` method, nor a
 * `KubeConfig` of @kubernetes/client-node. Thrown at once, with what was given.
 *
 * @example
 * ```ts
 * try { listWatch(JSON.parse('null'), pods); } catch (e) { if (e instanceof InvalidSourceError) console.log(e.message); }
 * ```
 */
export class InvalidSourceError extends RxkubeError {
  constructor(given: unknown) {
    const what = given === null || typeof given !== 'object' ? String(given) : `an object with ${Object.keys(given).slice(0, 8).join(', ') || 'no keys'}`;
    super(
      'InvalidSourceError',
      `expected a KubeConfig (new KubeConfig() of @kubernetes/client-node, loaded with loadFromDefault()) or a Transport (an object with a request method, e.g. fetchTransport({ baseUrl })), got ${what}`,
    );
  }
}
