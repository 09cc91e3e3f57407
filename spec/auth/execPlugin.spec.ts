// An exec credential plugin (client.authentication.k8s.io/v1 ExecCredential with
// expirationTimestamp), as EKS, GKE and AKS kubeconfigs use, through the real client-node stack:
// an informer lists and watches across several token expiries without a gap its handlers could
// notice; a token revoked early is replaced after one 401; a plugin that is missing, fails or
// prints garbage gives a CredentialError naming the command. No token ever shows.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, toArray } from 'rxjs';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import { ReflectorError } from '../../lib/reflector/reflectorError.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { clientNodeTransport, type ClientNodeTransport } from '../../lib/transport/clientNode.js';
import { CredentialError } from '../../lib/transport/credentialError.js';
import { expectNoCredentials, kubeConfigFor, runInformer, waitFor, type ConfigMap, type RunningInformer } from './support.js';

// Counts its runs, then prints the first token of tokens.json that is still valid for 300 ms, with
// an expirationTimestamp 300 ms before the server's expiry (real plugins renew early too).
const PLUGIN = `
const fs = require('fs');
const dir = process.argv[2];
fs.writeFileSync(dir + '/runs', String(Number(fs.readFileSync(dir + '/runs', 'utf8')) + 1));
const tokens = JSON.parse(fs.readFileSync(dir + '/tokens.json', 'utf8'));
const t = tokens.find((x) => x.expiresAt - 300 > Date.now());
if (!t) { process.stderr.write('no token left'); process.exit(1); }
process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential',
  status: { token: t.token, expirationTimestamp: new Date(t.expiresAt - 300).toISOString() } }));
`;

interface IssuedToken {
  readonly token: string;
  readonly expiresAt: number;
}

describe('exec credential plugins through client-node', () => {
  let api: FakeApiServer;
  let dir: string;
  let tokens: IssuedToken[] = [];
  let running: RunningInformer | undefined;
  let transport: ClientNodeTransport | undefined;

  const writeTokens = (list: IssuedToken[]): void => {
    tokens = list;
    writeFileSync(join(dir, 'tokens.tmp'), JSON.stringify(list));
    renameSync(join(dir, 'tokens.tmp'), join(dir, 'tokens.json')); // the plugin never reads half a file
  };
  const runs = (): number => Number(readFileSync(join(dir, 'runs'), 'utf8'));
  const execUser = (command: string, args: string[]) => ({
    exec: { apiVersion: 'client.authentication.k8s.io/v1', command, args, interactiveMode: 'Never' },
  });
  const start = (command: string, args: string[]): RunningInformer => {
    transport = clientNodeTransport(kubeConfigFor(api, execUser(command, args)));
    running = runInformer(transport, { initialMs: 50, capMs: 400, jitter: 0 });
    return running;
  };
  /** Issues `count` tokens (users `name-0`, `name-1`, ...) of `lifetimeMs` each, back to back from now + `firstMs`, to the server and the plugin. */
  const issue = (name: string, count: number, firstMs: number, lifetimeMs: number): void => {
    const t0 = Date.now() + firstMs;
    const list = Array.from({ length: count }, (_, i) => ({ token: `exec-secret-${i}-${t0}`, expiresAt: t0 + i * lifetimeMs }));
    list.forEach((t, i) => api.addToken({ token: t.token, user: `${name}-${i}`, expiresAt: t.expiresAt }));
    writeTokens(list);
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-exec-'));
    writeFileSync(join(dir, 'plugin.cjs'), PLUGIN);
  });
  // A server per test: a stopped informer's last request may still reach the server after stop.
  beforeEach(async () => {
    api = await startFakeApiServer();
    writeFileSync(join(dir, 'runs'), '0');
  });
  afterEach(async () => {
    await running?.stop();
    transport?.destroy();
    running = undefined;
    transport = undefined;
    await api.close();
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps listing and watching across several expiries: every object added exactly once, no 401 reaches the informer', async () => {
    issue('rotating', 30, 1500, 800);
    api.clearRequests();
    const r = start(process.execPath, [join(dir, 'plugin.cjs'), dir]);
    expect(await r.inf.waitForCacheSync()).toBe(true);
    const rounds = 6;
    for (let i = 0; i < rounds; i++) {
      // Past the expiry of the token of this round, the informer must ask the plugin again.
      await waitFor(() => Date.now() > tokens[i]!.expiresAt, `token ${i} to expire`);
      if (i % 2 === 0) api.faults.dropWatches();
      else {
        api.faults.compact();
        api.faults.sendWatchError({ code: 410 }); // relist: a list and a new watch
      }
      api.create('configmaps', { metadata: { name: `cm-${i}`, namespace: 'default' } });
      await waitFor(() => r.inf.getByKey(`default/cm-${i}`) !== undefined, `cm-${i} in the informer`);
    }
    const adds = r.calls.filter((c) => c.startsWith('add '));
    expect(adds).toEqual(Array.from({ length: rounds }, (_, i) => `add cm-${i}`));
    expect(r.calls.filter((c) => c.startsWith('delete '))).toEqual([]);
    const users = new Set(api.requests.filter((q) => !q.unauthorized && q.resource === 'configmaps').map((q) => q.user));
    // Each round outlives a token, so every round runs with a later one (a slow round may skip some).
    expect(users.size).toBeGreaterThanOrEqual(3);
    expect(runs()).toBeGreaterThanOrEqual(3);
    expect(r.errors.filter((e) => e instanceof ReflectorError && e.statusCode === 401)).toEqual([]);
    expect(r.errors.filter((e) => e.cause instanceof CredentialError)).toEqual([]);
    expectNoCredentials(tokens.map((t) => t.token), r.errors, r.logLines, api.requests);
  });

  it('a token revoked before its expirationTimestamp: one 401, the plugin runs again, the request is retried, the informer never sees the 401', async () => {
    issue('revoked', 3, 60_000, 60_000);
    api.clearRequests();
    const r = start(process.execPath, [join(dir, 'plugin.cjs'), dir]);
    expect(await r.inf.waitForCacheSync()).toBe(true);
    await waitFor(() => api.openWatches('configmaps') === 1, 'the first watch');
    const before = runs();
    api.revokeToken(tokens[0]!.token);
    writeTokens(tokens.slice(1));
    api.faults.dropWatches();
    api.create('configmaps', { metadata: { name: 'after-revocation', namespace: 'default' } });
    await waitFor(() => r.inf.getByKey('default/after-revocation') !== undefined, 'the object created after the revocation');
    expect(runs()).toBe(before + 1);
    // list and watch as revoked-0; then one 401 (the next list or watch), retried at once as revoked-1.
    const users = api.requests.map((q) => q.user ?? 'unauthorized');
    expect(users.slice(0, 3)).toEqual(['revoked-0', 'revoked-0', 'unauthorized']);
    expect(users.slice(3).length).toBeGreaterThanOrEqual(1);
    expect(new Set(users.slice(3))).toEqual(new Set(['revoked-1']));
    expect(api.requests[3]!.verb).toBe(api.requests[2]!.verb);
    // The dropped watch may count as a very short watch; the 401 never reaches the informer.
    expect(r.errors.filter((e) => (e as ReflectorError).statusCode === 401 || e.cause instanceof CredentialError)).toEqual([]);
    expectNoCredentials(tokens.map((t) => t.token), r.errors, r.logLines, api.requests);
  });

  it('requests refused together with the same revoked token run the plugin once more, not once each', async () => {
    issue('together', 3, 60_000, 60_000);
    transport = clientNodeTransport(kubeConfigFor(api, execUser(process.execPath, [join(dir, 'plugin.cjs'), dir])));
    const lw = listWatch<ConfigMap>(transport, builtInResources.configMaps, { namespace: 'default' });
    const listOnce = () => firstValueFrom(lw.list({}).pipe(toArray()));
    await listOnce();
    expect(runs()).toBe(1);
    api.revokeToken(tokens[0]!.token);
    writeTokens(tokens.slice(1));
    api.clearRequests();
    await Promise.all([listOnce(), listOnce(), listOnce()]);
    expect(runs()).toBe(2);
    expect(api.requests.filter((q) => q.unauthorized)).toHaveLength(3);
    expect(api.requests.filter((q) => q.user === 'together-1')).toHaveLength(3);
  });

  it('a missing plugin: a CredentialError naming the command, retried after the backoff', async () => {
    const r = start(join(dir, 'no-such-plugin'), []);
    await waitFor(() => r.errors.length >= 2, 'two failed lists');
    const e = r.errors[0]!.cause as CredentialError;
    expect(e).toBeInstanceOf(CredentialError);
    expect(e.command).toBe(join(dir, 'no-such-plugin'));
    expect(e.message).toBe(`kubeconfig user "u": the exec credential plugin "${join(dir, 'no-such-plugin')}" was not found; install it or fix users[].user.exec.command`);
    expect(r.errorTimes[1]! - r.errorTimes[0]!).toBeGreaterThanOrEqual(45);
  });

  it('a plugin that fails: a CredentialError naming the command with what it wrote on stderr', async () => {
    writeFileSync(join(dir, 'failing.cjs'), `process.stderr.write('token service unavailable\\n'); process.exit(3);`);
    const r = start(process.execPath, [join(dir, 'failing.cjs')]);
    await waitFor(() => r.errors.length >= 1, 'a failed list');
    const e = r.errors[0]!.cause as CredentialError;
    expect(e).toBeInstanceOf(CredentialError);
    expect(e.message).toBe(`kubeconfig user "u": the exec credential plugin "${process.execPath}" failed: token service unavailable`);
  });

  it('a plugin that prints no ExecCredential: a CredentialError that does not quote what it printed', async () => {
    writeFileSync(join(dir, 'garbage.cjs'), `process.stdout.write('exec-secret-garbage-token');`);
    const r = start(process.execPath, [join(dir, 'garbage.cjs')]);
    await waitFor(() => r.errors.length >= 1, 'a failed list');
    const e = r.errors[0]!.cause as CredentialError;
    expect(e).toBeInstanceOf(CredentialError);
    expect(e.message).toContain(`the exec credential plugin "${process.execPath}" printed something that is not an ExecCredential`);
    expectNoCredentials(['exec-secret-garbage-token'], r.errors, r.logLines, api.requests);
  });
});
