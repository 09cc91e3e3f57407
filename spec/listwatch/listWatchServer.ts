import { afterAll, beforeAll } from '@jest/globals';
import { clientNodeTransport, type ClientNodeTransport } from '../../lib/transport/clientNode.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

// The server and transport of the running spec file, set by useServer (live bindings: each spec
// file has its own copy of this module).
export let api: FakeApiServer;
export let transport: ClientNodeTransport;

/**
 * Starts a fake API server (widgets served, `namespaces` created: kube's NamespaceLifecycle refuses
 * writes into a missing one) and a client-node transport to it around a describe block's tests.
 */
export function useServer(namespaces: readonly string[]): void {
  beforeAll(async () => {
    api = await startFakeApiServer({
      namespaces: [...namespaces],
      resources: [
        { group: 'example.com', version: 'v1alpha1', plural: 'widgets', kind: 'Widget', namespaced: true },
      ],
    });
    transport = clientNodeTransport(api.kubeConfig());
  });
  afterAll(async () => {
    transport.destroy();
    await api.close();
  });
}
