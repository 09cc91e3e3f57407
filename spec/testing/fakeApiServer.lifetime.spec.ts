// The fake API server ties the lifetimes of what runs against it to its own: what is made from its
// kubeConfig() (factories, controllers, leader electors) and what api.use() registers is stopped by
// close(), which says what still ran; `await using` closes it when a scope ends, a failing test's too.
import { describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { controller, leaderElection, leaseLock, sharedInformerFactory, type KubeObject } from '../../lib/node.js';
import { startFakeApiServer } from '../../lib/testing/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const noop = async () => undefined;

describe('fake API server: close() stops what runs against it', () => {
  it('stops a factory, a controller and a leader elector made from its kubeConfig() that still run, and names each with what to call', async () => {
    const said: string[] = [];
    const api = await startFakeApiServer({ warn: (m) => said.push(m) });
    const kc = api.kubeConfig();
    const factory = sharedInformerFactory(kc);
    const configMaps = factory.configMaps();
    const ctl = controller<KubeObject>({ name: 'leaky', for: configMaps, reconcile: noop });
    const elector = leaderElection({ lock: leaseLock(kc, 'default', 'leaky'), identity: 'a', onStartedLeading: noop, onStoppedLeading: noop });
    ctl.start();
    elector.start();
    factory.start();
    await factory.waitForCacheSync();
    await api.waitForWatches(1, 'configmaps');

    await api.close();

    expect(factory.isShutdown()).toBe(true);
    expect(configMaps.isStopped()).toBe(true);
    expect(ctl.status()).toBe('stopped');
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`the fake API server ${api.url} was closed while clients still used it`);
    expect(said[0]).toContain('a sharedInformerFactory with the informers configmaps (call factory.shutdown())');
    expect(said[0]).toContain('controller "leaky" (call its stop())');
    expect(said[0]).toContain('a leader elector on the lease default/leaky (call elector.stop())');
    expect(said[0]).toContain('Watches still open: a client without a User-Agent watching configmaps');
    expect(said[0]).toContain('api.use(thing)');
  });

  it('says nothing when everything was stopped before close()', async () => {
    const said: string[] = [];
    const api = await startFakeApiServer({ warn: (m) => said.push(m) });
    const factory = sharedInformerFactory(api.kubeConfig());
    const ctl = controller<KubeObject>({ name: 'tidy', for: factory.configMaps(), reconcile: noop });
    ctl.start();
    factory.start();
    await factory.waitForCacheSync();
    await ctl.stop();
    await factory.shutdown();
    await api.close();
    expect(said).toEqual([]);
  });

  it('stops what api.use() registered, newest first, without a word', async () => {
    const said: string[] = [];
    const stopped: string[] = [];
    const api = await startFakeApiServer({ warn: (m) => said.push(m) });
    const factory = api.use(sharedInformerFactory(api.kubeConfig()));
    factory.configMaps();
    factory.start();
    await factory.waitForCacheSync();
    api.use({ stop: async () => void stopped.push('first') });
    api.use({ shutdown: async () => void stopped.push('second') });
    api.use({ [Symbol.asyncDispose]: async () => void stopped.push('third') });
    await api.close();
    expect(stopped).toEqual(['third', 'second', 'first']);
    expect(factory.isShutdown()).toBe(true);
    expect(said).toEqual([]);
  });

  it('names the watches of a client it cannot stop by User-Agent and resource', async () => {
    const said: string[] = [];
    const api = await startFakeApiServer({ warn: (m) => said.push(m) });
    // A KubeConfig of its own, not the server's kubeConfig(): nothing registers with the server.
    const kc = new KubeConfig();
    kc.loadFromString(api.kubeConfigText());
    const factory = sharedInformerFactory(kc, { namespace: 'shop', logger: false });
    factory.pods();
    factory.start();
    await factory.waitForCacheSync();
    await api.waitForWatches(1, 'pods');
    await api.close();
    expect(factory.isShutdown()).toBe(false);
    expect(said).toEqual([expect.stringContaining('Watches still open: a client without a User-Agent watching pods in shop.')]);
    await factory.shutdown();
  });

  it('`await using` closes the server when the scope ends, stopping what was made from it', async () => {
    const said: string[] = [];
    let factory: ReturnType<typeof sharedInformerFactory> | undefined;
    {
      await using api = await startFakeApiServer({ warn: (m) => said.push(m) });
      factory = sharedInformerFactory(api.kubeConfig());
      factory.namespaces();
      factory.start();
      await factory.waitForCacheSync();
    }
    expect(factory.isShutdown()).toBe(true);
    expect(said).toEqual([expect.stringContaining('a sharedInformerFactory with the informers namespaces')]);
  });
});

describe('a test that fails before its cleanup', () => {
  it('ends in bounded time, saying which informers and controller still ran (a jest of its own, tests that fail on purpose)', () => {
    // The fixture's own jest: ES modules as `npm test`, transpile-only (it checks behaviour, not types).
    const config = {
      rootDir: ROOT,
      testEnvironment: 'node',
      extensionsToTreatAsEsm: ['.ts'],
      roots: ['<rootDir>/spec/testing/fixtures'],
      testMatch: ['**/failsBeforeCleanup.fixture.ts'],
      moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
      transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: { isolatedModules: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', esModuleInterop: true } }] },
      testTimeout: 60_000,
    };
    const started = Date.now();
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--config', JSON.stringify(config), '--ci', '--runInBand'], {
      cwd: ROOT,
      encoding: 'utf8',
      // Without the server's lifetime the informers retry forever and jest never exits: this bound fails it.
      timeout: 240_000,
      env: { ...process.env, RXKUBE_LOG: '', NODE_OPTIONS: '--experimental-vm-modules --no-warnings' },
    });
    const output = `${run.stdout}${run.stderr}`;
    expect({ signal: run.signal, status: run.status, seconds: Math.round((Date.now() - started) / 1000) }).toEqual({ signal: null, status: 1, seconds: expect.any(Number) });
    expect(output).toContain('Tests:       2 failed, 2 total');
    expect(output).toContain('a sharedInformerFactory with the informers configmaps (call factory.shutdown())');
    expect(output).toContain('controller "leaky" (call its stop())');
    expect(output).toContain('a sharedInformerFactory with the informers secrets (call factory.shutdown())');
  }, 300_000);
});
