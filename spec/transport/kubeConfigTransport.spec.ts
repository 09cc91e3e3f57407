import { describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { fetchTransport } from '../../lib/transport/fetchTransport.js';
import { isTransport, transportFor } from '../../lib/transport/kubeConfigTransport.js';
import { InvalidSourceError } from '../../lib/transport/invalidSourceError.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import { ConfigError } from '../../lib/configError.js';

const kubeConfig = (): KubeConfig => {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:6443' }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
};

describe('transportFor', () => {
  it('returns a Transport as is', () => {
    const t = fetchTransport({ baseUrl: 'http://127.0.0.1:8001' });
    expect(isTransport(t)).toBe(true);
    expect(transportFor(t)).toBe(t);
  });

  // Runs first: nothing in this file has loaded an entry that provides the Node transport yet, as in
  // a browser bundle of rxkube's index entry.
  it('without the Node entry (rxkube in a browser bundle), a KubeConfig is a ConfigError that says what to pass instead', () => {
    const kc = kubeConfig();
    expect(() => transportFor(kc)).toThrow(ConfigError);
    expect(() => transportFor(kc)).toThrow(/pass a Transport such as fetchTransport\(\{ baseUrl \}\); on Node pass clientNodeTransport\(kubeConfig\)/);
  });

  it('makes one client-node transport per KubeConfig object once rxkube on Node (lib/node.ts) is loaded, shared by every ListWatch built from it', async () => {
    await import('../../lib/node.js');
    const kc = kubeConfig();
    expect(isTransport(kc)).toBe(false);
    const t = transportFor(kc);
    expect(isTransport(t)).toBe(true);
    expect(transportFor(kc)).toBe(t);
    expect(transportFor(kubeConfig())).not.toBe(t);
  });

  it('neither a KubeConfig nor a Transport (plain JavaScript) is an InvalidSourceError naming what was given', () => {
    const given = (source: unknown) => () => transportFor(source as KubeConfig);
    expect(given(null)).toThrow(InvalidSourceError);
    expect(given(undefined)).toThrow(/expected a KubeConfig .* or a Transport .*got undefined/);
    expect(given({ server: 'https://127.0.0.1:6443' })).toThrow(/got an object with server$/);
    expect(() => listWatch(null as unknown as KubeConfig, { group: '', version: 'v1', plural: 'pods', namespaced: true })).toThrow(InvalidSourceError);
  });
});
