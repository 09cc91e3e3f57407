import type { KubeConfig } from '@kubernetes/client-node';
import { ConfigError } from '../configError.js';
import { missingMethods } from '../meta/missingMethods.js';
import { InvalidSourceError } from './invalidSourceError.js';
import type { Transport } from './transport.js';

const transports = new WeakMap<KubeConfig, Transport>();

// The transport a KubeConfig gets. Set by the entries Node loads (lib/node.ts, rxkube/testing) to the
// client-node transport, and by nothing else: a browser bundle of `rxkube` then carries no Node
// transport (node:http, credentials, exec plugins) that it could never run.
let kubeConfigTransport: ((kubeConfig: KubeConfig) => Transport) | undefined;

/**
 * Sets the transport that {@link transportFor} makes for a `KubeConfig`: `rxkube` on Node and
 * `rxkube/testing` set `clientNodeTransport`. Internal to rxkube's entry points (not exported).
 *
 * @example
 * ```ts
 * provideKubeConfigTransport(clientNodeTransport);
 * ```
 */
export function provideKubeConfigTransport(make: (kubeConfig: KubeConfig) => Transport): void {
  kubeConfigTransport = make;
}

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
 * A `KubeConfig` works where Node (or Bun, Deno) loaded rxkube (the package's `node` export
 * condition, and `rxkube/testing`). Where a bundler resolved rxkube's browser entry, it is a
 * {@link ConfigError}: pass a Transport (`fetchTransport`), or `clientNodeTransport(kubeConfig)`
 * explicitly (e.g. in a jsdom test environment, which resolves browser conditions).
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
  if (!kubeConfigTransport) {
    throw new ConfigError(
      'source',
      "a KubeConfig needs rxkube's Node transport, and this is rxkube's browser entry (the runtime or bundler did not resolve the `node` export condition): " +
        'in a browser pass a Transport such as fetchTransport({ baseUrl }); on Node pass clientNodeTransport(kubeConfig) (e.g. in a jsdom test environment)',
      { value: source },
    );
  }
  transport = kubeConfigTransport(source);
  transports.set(source, transport);
  return transport;
}
