import type { KubeConfig } from '@kubernetes/client-node';
import { missingMethods } from '../meta/missingMethods.js';
import { clientNodeTransport } from './clientNode.js';
import { InvalidSourceError } from './invalidSourceError.js';
import type { Transport } from './transport.js';

const transports = new WeakMap<KubeConfig, Transport>();

/**
 * Is `source` a {@link Transport} (it has a `request` method), rather than a `KubeConfig`?
 *
 * @example
 * ```ts
 * isTransport(fetchTransport({ baseUrl: '/k8s' })); // true
 * ```
 */
export function isTransport(source: unknown): source is Transport {
  return (
    typeof source === 'object' &&
    source !== null &&
    typeof (source as Partial<Transport>).request === 'function'
  );
}

/**
 * The {@link Transport} for a `KubeConfig` (the client-node transport, Node only) or a `Transport`
 * (returned as is). One transport per `KubeConfig` object, so every ListWatch built from it shares
 * its connection pool.
 *
 * @example
 * ```ts
 * const transport = transportFor(kubeConfig); // clientNodeTransport(kubeConfig), once per KubeConfig
 * ```
 */
export function transportFor(source: KubeConfig | Transport): Transport {
  if (isTransport(source)) return source;
  // What client-node's KubeConfig has and the credentials use; anything else fails here, plainly.
  if (missingMethods(source, ['getCurrentCluster', 'applyToHTTPSOptions']).length > 0) {
    throw new InvalidSourceError(source);
  }
  let transport = transports.get(source);
  if (transport) return transport;
  transport = clientNodeTransport(source);
  transports.set(source, transport);
  return transport;
}
