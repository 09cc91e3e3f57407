import { afterEach, describe, expect, it } from '@jest/globals';
import { KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEVER, VirtualAction, VirtualTimeScheduler, of } from 'rxjs';
import '../../lib/transport/clientNode.js';
import type { RxkubeError } from '../../lib/errors.js';
import { sharedInformerFactory, type SharedInformerFactory } from '../../lib/factory/sharedInformerFactory.js';
import { informer } from '../../lib/informer/informer.js';
import { waitForSync } from '../../lib/informer/waitForSync.js';
import type { ListWatch } from '../../lib/listwatch/listWatch.js';
import type { Resource } from '../../lib/listwatch/resource.js';
import { ReflectorError } from '../../lib/reflector/reflectorError.js';
import {
  ApiServerUnreachableError,
  isFallbackKubeConfig,
  NoKubeConfigError,
} from '../../lib/transport/unreachableError.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

const widgets: Resource = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };

let api: FakeApiServer | undefined;
let factory: SharedInformerFactory | undefined;
afterEach(async () => {
  await factory?.shutdown();
  await api?.close();
  factory = undefined;
  api = undefined;
});

/** A logger that keeps the lines and aborts `abort` on the first one. */
function loggerThatAborts(abort: AbortController) {
  const lines: string[] = [];
  return {
    lines,
    error: (message: string) => {
      lines.push(message);
      abort.abort();
    },
  };
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** A loopback port with nothing listening: bind one, then close it. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('first contact: an informer that cannot sync says why, without anyone subscribing', () => {
  it('a custom resource the server does not serve: the log names it and asks about the CRD; waitForCacheSync gives up', async () => {
    api = await startFakeApiServer();
    const abort = new AbortController();
    const logger = loggerThatAborts(abort);
    const reported: Array<[RxkubeError, string]> = [];
    factory = sharedInformerFactory(api.kubeConfig(), { logger });
    factory.errors$.subscribe(({ error, resource }) => reported.push([error, resource]));
    factory.informerFor(widgets);
    factory.start();
    const synced = await factory.waitForCacheSync({ signal: abort.signal });
    expect(synced).toEqual(new Map([['widgets.example.com', false]]));
    expect(logger.lines[0]).toMatch(
      /^rxkube: widgets\.example\.com: the server does not serve this resource \(404\); is the CustomResourceDefinition installed/,
    );
    expect(reported[0][1]).toBe('widgets.example.com');
    expect(reported[0][0]).toBeInstanceOf(ReflectorError);
    expect((reported[0][0] as ReflectorError).statusCode).toBe(404);
  });

  it('a kubeconfig whose server does not answer: the log says where it tried and what to check', async () => {
    const port = await deadPort();
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser({ name: 'nowhere', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }, { name: 'me' });
    const abort = new AbortController();
    const logger = loggerThatAborts(abort);
    factory = sharedInformerFactory(kc, { logger });
    const pods = factory.pods();
    factory.start();
    expect(await pods.waitForCacheSync({ signal: abort.signal })).toBe(false);
    expect(logger.lines[0]).toMatch(/^rxkube: pods: cannot reach the API server/);
    expect(logger.lines[0]).toContain(`cannot reach the API server at http://127.0.0.1:${port} (kubeconfig context "loaded-context")`);
    expect(logger.lines[0]).toContain('ECONNREFUSED');
  });

  it('no kubeconfig at all (a real loadFromDefault in an empty HOME): the first line names it and says what to do', async () => {
    const saved = { HOME: process.env.HOME, KUBECONFIG: process.env.KUBECONFIG, host: process.env.KUBERNETES_SERVICE_HOST };
    const home = mkdtempSync(join(tmpdir(), 'rxkube-nokubeconfig-'));
    const kc = new KubeConfig();
    try {
      process.env.HOME = home;
      delete process.env.KUBECONFIG;
      delete process.env.KUBERNETES_SERVICE_HOST;
      kc.loadFromDefault();
    } finally {
      restoreEnv('HOME', saved.HOME);
      restoreEnv('KUBECONFIG', saved.KUBECONFIG);
      restoreEnv('KUBERNETES_SERVICE_HOST', saved.host);
      rmSync(home, { recursive: true, force: true });
    }
    const abort = new AbortController();
    const logger = loggerThatAborts(abort);
    const reported: RxkubeError[] = [];
    factory = sharedInformerFactory(kc, { logger });
    factory.errors$.subscribe(({ error }) => reported.push(error));
    const pods = factory.pods();
    factory.start();
    expect(await pods.waitForCacheSync({ signal: abort.signal })).toBe(false);
    expect(logger.lines[0]).toMatch(/^rxkube: pods: no kubeconfig found: /);
    expect(logger.lines[0]).toContain('Set KUBECONFIG or create ~/.kube/config');
    expect(logger.lines[0]).not.toContain('HTTP protocol is not allowed');
    expect((reported[0] as ReflectorError).cause).toBeInstanceOf(NoKubeConfigError);
  });

  it("recognises client-node's no-kubeconfig fallback and says so", () => {
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser({ name: 'cluster', server: 'http://localhost:8080', skipTLSVerify: false }, { name: 'user' });
    const target = {
      cluster: kc.getCurrentCluster()?.name,
      server: kc.getCurrentCluster()?.server,
      user: kc.getCurrentUser()?.name,
      context: kc.getCurrentContext(),
    };
    expect(isFallbackKubeConfig(target)).toBe(true);
    expect(isFallbackKubeConfig({ ...target, server: 'https://10.0.0.1:6443' })).toBe(false);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8080'), { code: 'ECONNREFUSED' });
    const err = new ApiServerUnreachableError(
      '/api/v1/pods',
      { server: 'http://localhost:8080', context: 'loaded-context', isFallback: true },
      refused,
    );
    expect(err.message).toMatch(/^no kubeconfig found: /);
    expect(err.message).toContain('Set KUBECONFIG or create ~/.kube/config');
  });
});

describe('waitForCacheSync({ timeout, signal }) resolves false, on the informer`s scheduler', () => {
  const hanging: ListWatch<V1Pod> = { list: () => NEVER, watch: () => NEVER };

  it('resolves false when the timeout passes, not before', async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, 4_999);
    const inf = informer(hanging, { scheduler, logger: false });
    inf.start();
    let result: boolean | undefined;
    void inf.waitForCacheSync({ timeout: 5_000 }).then((r) => (result = r));
    scheduler.flush();
    await Promise.resolve();
    expect(result).toBeUndefined();
    scheduler.maxFrames = 5_000;
    scheduler.flush();
    await Promise.resolve();
    expect(result).toBe(false);
    await inf.stop();
  });

  it('resolves false at once for an aborted signal, and true when synced first', async () => {
    const inf = informer(hanging, { logger: false });
    inf.start();
    expect(await inf.waitForCacheSync({ signal: AbortSignal.abort() })).toBe(false);
    await inf.stop();
    const scheduler = new VirtualTimeScheduler(VirtualAction, 10_000);
    expect(await waitForSync(of(false, true), { timeout: 1_000 }, scheduler)).toBe(true);
  });
});
