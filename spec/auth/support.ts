// Shared helpers of the authentication specs (not a spec file itself).
import { expect, jest } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { request } from 'node:https';
import type { Subscription } from 'rxjs';
import type { RxkubeError } from '../../lib/errors.js';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { informer, type Informer } from '../../lib/informer/informer.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import type { FakeApiServer } from '../../lib/testing/index.js';
import type { Transport } from '../../lib/transport/transport.js';

export interface ConfigMap {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace: string; resourceVersion?: string };
  data?: Record<string, string>;
}

/** A running ConfigMap informer in `default` and what it told: handler calls, errors (with when), console lines. */
export interface RunningInformer {
  readonly inf: Informer<ConfigMap>;
  /** `add a`, `update a`, `delete a`, in order. */
  readonly calls: string[];
  readonly errors: RxkubeError[];
  readonly errorTimes: number[];
  /** Everything written through console.* while it ran. */
  readonly logLines: string[];
  stop(): Promise<void>;
}

/** Starts a ConfigMap informer over `transport`, with a deterministic backoff (no jitter), capturing console output. */
export function runInformer(transport: Transport, backoff = { initialMs: 200, capMs: 2000, jitter: 0 }): RunningInformer {
  const logLines: string[] = [];
  const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
    jest.spyOn(console, m).mockImplementation((...args: unknown[]) => void logLines.push(args.map(String).join(' '))),
  );
  const inf = informer<ConfigMap>(listWatch<ConfigMap>(transport, builtInResources.configMaps, { namespace: 'default' }), {
    reflector: { random: () => 0, backoff, expectedTypeName: 'ConfigMap' },
  });
  const calls: string[] = [];
  const errors: RxkubeError[] = [];
  const errorTimes: number[] = [];
  const sub: Subscription = inf.errors$.subscribe((e) => {
    errors.push(e);
    errorTimes.push(Date.now());
  });
  inf.addEventHandler({
    add: (o) => void calls.push(`add ${o.metadata.name}`),
    update: (_, o) => void calls.push(`update ${o.metadata.name}`),
    delete: (o) => void calls.push(`delete ${'obj' in o ? o.key : o.metadata.name}`),
  });
  inf.start();
  return {
    inf,
    calls,
    errors,
    errorTimes,
    logLines,
    stop: async () => {
      sub.unsubscribe();
      await inf.stop();
      for (const s of spies) s.mockRestore();
    },
  };
}

export { waitFor } from '../support/waitFor.js';

/**
 * The fragments of a credential that must never appear anywhere: a token as is, and for PEM
 * material (certificate, key) a run of its base64 body and the start of its base64 as kubeconfig
 * `-data` fields carry it.
 */
export function secretFragments(...secrets: ReadonlyArray<string>): string[] {
  return secrets.flatMap((s) => {
    const body = /-----BEGIN [^-]+-----\n([\s\S]*?)\n-----END/.exec(s)?.[1]?.replace(/\n/g, '');
    if (!body) return [s];
    return [body.slice(8, 48), Buffer.from(s).toString('base64').slice(0, 40)];
  });
}

/** Every string a user or an operator could see: error messages, causes and stacks, log lines, the request log. */
export function visibleText(things: ReadonlyArray<unknown>): string {
  const seen = new Set<unknown>();
  const out: string[] = [];
  const walk = (x: unknown, depth: number): void => {
    if (x === null || x === undefined || depth > 6 || seen.has(x)) return;
    if (typeof x !== 'object') {
      out.push(String(x));
      return;
    }
    seen.add(x);
    if (x instanceof Error) {
      out.push(x.message, x.stack ?? '');
      walk(x.cause, depth + 1);
    }
    for (const v of Object.values(x as object)) walk(v, depth + 1);
  };
  for (const t of things) walk(t, 0);
  return out.join('\n');
}

/** Asserts that no fragment of any secret appears in what users see. */
export function expectNoCredentials(secrets: ReadonlyArray<string>, ...seen: ReadonlyArray<unknown>): void {
  const text = visibleText(seen);
  for (const fragment of secretFragments(...secrets)) expect(text).not.toContain(fragment);
}

/** A kubeconfig object (as in a file) for the fake server with the given user and cluster fields. */
export function kubeConfigObject(
  api: FakeApiServer,
  user: Record<string, unknown>,
  cluster: Record<string, unknown> = { 'certificate-authority-data': Buffer.from(api.caCert!).toString('base64') },
): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: api.url, ...cluster } }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u', namespace: 'default' } }],
    'current-context': 'x',
  };
}

/** The same, loaded into client-node's KubeConfig. */
export function kubeConfigFor(api: FakeApiServer, user: Record<string, unknown>, cluster?: Record<string, unknown>): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(kubeConfigObject(api, user, cluster)));
  return kc;
}

/** A GET with an optional client certificate or token and extra headers; status and parsed body. */
export function get(
  api: FakeApiServer,
  path: string,
  o: { cert?: string; key?: string; token?: string; headers?: Record<string, string> } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Accept: 'application/json', ...o.headers };
    if (o.token) headers.Authorization = `Bearer ${o.token}`;
    const req = request(new URL(path, api.url), { ca: api.caCert, cert: o.cert, key: o.key, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as unknown }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
