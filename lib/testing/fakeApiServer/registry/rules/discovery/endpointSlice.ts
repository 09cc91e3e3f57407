import type { JsonObject } from '../../../resources.js';
import type { TypeRules } from '../../typeRules.js';
import { objectsAt, setDefault } from '../support/json.js';

// EndpointSlice (discovery.k8s.io/v1): SetDefaults_EndpointPort (name "" and protocol TCP when
// unset). Its validation is left to the pipeline's metadata checks.

function defaultEndpointSlice(slice: JsonObject): void {
  for (const [port] of objectsAt(slice, 'ports')) {
    setDefault(port, 'name', '');
    setDefault(port, 'protocol', 'TCP');
  }
}

/**
 * The EndpointSlice's rules.
 *
 * @example
 * ```ts
 * const s = { ports: [{ port: 80 }] };
 * endpointSliceRules.defaults?.(s); // s.ports[0] = { port: 80, name: '', protocol: 'TCP' }
 * ```
 */
export const endpointSliceRules: TypeRules = { defaults: defaultEndpointSlice };
