// A @kubernetes/client-node API client whose requests share one keep-alive agent.
//
// client-node 1.x builds a new https.Agent for every request (KubeConfig.applySecurityAuthentication
// calls createAgent each time), so every request opens a new connection with a full TLS handshake,
// and the server answers `connection: close`. In the churn bench on this 2-core machine that was
// most of the client thread's CPU (TLS handshakes and secure contexts: over half of its busy time)
// and capped the controller below the 40 changes/s the scenario needs. This client keeps
// everything else of client-node (its KubeConfig authentication, headers, generated API and
// serializer) and only reuses the connection: one keep-alive agent built from the options
// client-node gave the first request. rxkube's own transport (clientNodeTransport) pools
// connections the same way.
//
//   const { api, destroy } = await keepAliveApiClient(kc, CoreV1Api);
//   await api.readNamespace({ name: 'default' });
//   destroy();   // closes the idle pooled connections
import https from 'node:https';
import http from 'node:http';

export async function keepAliveApiClient(kc, ApiType) {
  const { createConfiguration, ServerConfiguration } = await import('@kubernetes/client-node');
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('keepAliveApiClient: no current cluster in the KubeConfig');
  let agent;
  const auth = {
    getName: () => 'keepAliveKubeConfig',
    async applySecurityAuthentication(context) {
      await kc.applySecurityAuthentication(context);
      const first = context.getAgent();
      agent ??= first instanceof https.Agent ? new https.Agent({ ...first.options, keepAlive: true }) : new http.Agent({ keepAlive: true });
      context.setAgent(agent);
    },
  };
  const config = createConfiguration({ baseServer: new ServerConfiguration(cluster.server, {}), authMethods: { default: auth } });
  return { api: new ApiType(config), destroy: () => agent?.destroy() };
}
