import type { KubeConfig } from '@kubernetes/client-node';
import { RxkubeError } from '../errors.js';
import type { Transport } from './transport.js';

type KubeConfigTransportFactory = (kubeConfig: KubeConfig) => Transport;

// The core must bundle for browsers, so it never imports the client-node transport: that module
// registers itself here when it is loaded (on Node, importing `rxkube` loads it).
let factory: KubeConfigTransportFactory | undefined;
const transports = new WeakMap<KubeConfig, Transport>();

/**
 * Registers how a `KubeConfig` becomes a {@link Transport}. `lib/transport/clientNode.ts` does this
 * when it is loaded; call it yourself only to replace that transport for every `KubeConfig`.
 *
 * @example
 * ```ts
 * registerKubeConfigTransport((kc) => myTransport(kc));
 * ```
 */
export function registerKubeConfigTransport(create: KubeConfigTransportFactory): void {
  factory = create;
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
  return typeof source === 'object' && source !== null && typeof (source as Partial<Transport>).request === 'function';
}

/**
 * The {@link Transport} for a `KubeConfig` or a `Transport` (returned as is). One transport per
 * `KubeConfig` object, so every ListWatch built from it shares its connection pool.
 *
 * @example
 * ```ts
 * const transport = transportFor(kubeConfig); // the client-node transport, on Node
 * ```
 */
export function transportFor(source: KubeConfig | Transport): Transport {
  if (isTransport(source)) return source;
  let transport = transports.get(source);
  if (transport) return transport;
  if (!factory) {
    throw new RxkubeError(
      'NoKubeConfigTransport',
      'a KubeConfig was given but no transport for it is loaded: on Node, import clientNodeTransport from rxkube and pass clientNodeTransport(kubeConfig); in a browser, pass fetchTransport({ baseUrl })',
    );
  }
  transport = factory(source);
  transports.set(source, transport);
  return transport;
}
