import { writeFile } from 'node:fs/promises';
import { checkClientNode } from '../../transport/clientNodeCheck.js';
import { loadClientNode } from '../../transport/clientNodeLoad.js';
import { Authenticator } from './auth/authenticator.js';
import { tokenCreator } from './serverAccess.js';
import type { ClientCertificate, ClientCertificateOptions } from './auth/certificates.js';
import { createServerContext } from './context.js';
import { dataPlane } from './dataPlane.js';
import type { FakeApiServer, FakeApiServerOptions } from './fakeApiServer.js';
import { kubeConfigBuilder } from './auth/kubeConfig.js';
import { listen } from './handlers/listener.js';
import { watchCounter } from './watch/openWatches.js';
import type { WatchHub } from './watch/watchHub.js';
import { openWatchDescriptions, serverLifetime, unstoppedMessage } from './serverLifetime.js';
import { attachLifetime } from '../../meta/lifetime.js';
import { applyPatch } from './registry/patch.js';
import { requestLog } from './handlers/requestLog.js';
import { routeRequest } from './handlers/router.js';
import { replayIntoServer, type ServerReplay } from '../record/replayIntoServer.js';

// The server's public types live in fakeApiServer.ts and requestLog.ts; re-exported from here, the
// module lib/testing/index.ts and the fixtures import them from.
export type { AnyObject, FakeApiServer, FakeApiServerOptions, FakeKubeConfigOptions, FakeList, Stored, StoredObjectMeta } from './fakeApiServer.js';
export type { RecordedRequest } from './handlers/requestLog.js';

/**
 * The token accepted by default over HTTPS (user `admin`, group `system:masters`).
 *
 * @example
 * ```ts
 * fetch(`${api.url}/api/v1/pods`, { headers: { Authorization: `Bearer ${DEFAULT_TOKEN}` } });
 * ```
 */
export const DEFAULT_TOKEN = 'rxkube-fake-admin-token';

/**
 * Starts a fake Kubernetes API server on 127.0.0.1: list, watch, writes, discovery, bearer-token
 * auth and faults, in memory, speaking the real protocol (see docs/testing.md).
 *
 * @example
 * ```ts
 * const api = await startFakeApiServer();
 * const core = api.kubeConfig().makeApiClient(CoreV1Api);
 * await core.listNamespacedPod({ namespace: 'default' });
 * await api.close();
 * ```
 */
export async function startFakeApiServer(options: FakeApiServerOptions = {}): Promise<FakeApiServer> {
  checkClientNode(); // loading client-node 2 on Node < 22.19 would crash the process
  const clientNode = await loadClientNode();
  const { ctx, faults, cancelWaits, certs } = createServerContext(options);
  const { storage, registry, types, hub, scheduler } = ctx;
  const certAuth = !options.http && (options.clientCertificateAuth ?? false);
  const tokens = options.tokens ?? (options.http || certAuth ? false : [{ token: DEFAULT_TOKEN, user: 'admin', groups: ['system:masters'] }]);
  const { access, tokenObjects } = ctx;
  const auth = new Authenticator(tokens, () => scheduler.now(), certAuth, (t) => access.issuer.authenticate(t, tokenObjects), access.mode === 'RBAC');
  const log = requestLog(options.requestLogLimit ?? 10000);
  const watches = watchCounter(hub, (ref) => types.resolve(ref));

  let serverAddress = '127.0.0.1';
  const handle = routeRequest({ ctx, auth, faults, log, serverAddress: () => serverAddress });
  const listener = await listen(handle, certs, options.port ?? 0, options.host ?? '127.0.0.1');
  const port = listener.port;
  serverAddress = `127.0.0.1:${port}`;
  const url = `${certs ? 'https' : 'http'}://127.0.0.1:${port}`;
  const defaultToken = tokens === false ? undefined : tokens[0]?.token;
  const issueClientCertificate = (user: string, groups?: ReadonlyArray<string>, o?: ClientCertificateOptions): ClientCertificate => {
    if (!certs) throw new Error('client certificates need an HTTPS fake API server (not http: true)');
    return certs.issueClientCertificate(user, groups, o);
  };
  const createToken = tokenCreator(access, tokenObjects, () => scheduler.now());
  const serviceAccountToken = (sa: { namespace: string; name: string; expirationSeconds?: number }) =>
    createToken(sa.namespace, sa.name, sa.expirationSeconds === undefined ? {} : { expirationSeconds: sa.expirationSeconds }).token;
  const kubeConfigText = kubeConfigBuilder({ url, caCert: certs?.caCert, defaultToken, certAuth, issueClientCertificate, serviceAccountToken });
  let closed: Promise<void> | undefined;
  const lifetime = serverLifetime();
  const warn = warnerOf(options.warn);
  const replays = new Set<ServerReplay>();
  const replay = (...args: Parameters<FakeApiServer['replay']>): ServerReplay => {
    const r = replayIntoServer(ctx, ...args);
    replays.add(r);
    return r;
  };
  if (options.replay) replay(options.replay);

  const api: FakeApiServer = {
    url,
    port,
    caCert: certs?.caCert,
    token: defaultToken,
    get resourceVersion() {
      return String(storage.resourceVersion);
    },
    faults,
    get requests() {
      return log.requests;
    },
    clearRequests: () => log.clear(),
    openWatches: watches.openWatches,
    waitForWatches: watches.waitForWatches,
    kubeConfig: (o) => {
      const kc = new clientNode.KubeConfig();
      kc.loadFromString(kubeConfigText(o));
      // What is made from it (factories, controllers, electors) registers with this server's lifetime.
      return attachLifetime(kc, lifetime);
    },
    use: (thing) => lifetime.use(thing),
    // `await using api = await startFakeApiServer()` closes it when the scope ends (Node 20 has the symbol).
    [Symbol.asyncDispose]: () => api.close(),
    kubeConfigText,
    writeKubeConfig: (file, o) => writeFile(file, kubeConfigText(o), { mode: 0o600 }),
    issueClientCertificate,
    addToken: (t) => auth.addToken(t),
    revokeToken: (t) => auth.revokeToken(t),
    createToken,
    registerResource: (def) => types.register(def),
    admission: {
      register: (plugin, o) => ctx.admission.register(plugin, o?.stage ?? 'webhook'),
      plugins: () => ctx.admission.plugins().map(({ plugin, stage }) => ({ name: plugin.name, stage })),
    },
    replay,
    ...dataPlane(storage, registry, types),
    close: () =>
      (closed ??= (async () => {
        // Before anything stops: who still watches, to name them if they were not stopped first. A
        // client that stopped just before (factory.shutdown() resolved) may have aborted a watch
        // whose socket the server has not yet seen close: a few turns of the event loop let it.
        await watchesClosing(hub);
        const watching = openWatchDescriptions(hub);
        const { stillRunning, used, errors } = await lifetime.end();
        cancelWaits();
        for (const r of replays) r.cancel();
        for (const s of hub.all()) s.destroy();
        await new Promise<void>((resolve) => listener.close(resolve));
        watches.clear();
        // Watches of what api.use() registered were stopped on purpose: named only beside a leak.
        const message = unstoppedMessage(url, stillRunning, used === 0 || stillRunning.length > 0 ? watching : []);
        if (message) warn(errors.length === 0 ? message : `${message} Stopping them failed: ${errors.map(String).join('; ')}`);
      })()),
  };
  return api;
}

/** Resolves once no watch is open on `hub`, or after a bounded number of event-loop turns (no timer). */
async function watchesClosing(hub: WatchHub): Promise<void> {
  for (let turn = 0; turn < 50 && hub.all().some((s) => s.isOpen); turn++) await new Promise<void>((r) => setImmediate(r));
}

/** Where close() says what still ran: `options.warn`, else console.warn unless `RXKUBE_LOG=off`. */
function warnerOf(option: FakeApiServerOptions['warn']): (message: string) => void {
  if (option === false) return () => undefined;
  if (option) return option;
  return (message) => {
    if (process.env['RXKUBE_LOG'] !== 'off') console.warn(message);
  };
}

// applyPatch is re-exported for users who want to compute a patch result the way the server does.
export { applyPatch };
