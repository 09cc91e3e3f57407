/**
 * `rxkube-fake-apiserver`: runs rxkube's fake Kubernetes API server from a shell until killed.
 * Prints one line, `listening on URL`, once it serves.
 * @packageDocumentation
 */
import { parseArgs } from 'node:util';
import { startFakeApiServer } from '../testing/index.js';
import { readManifests } from '../testing/fakeApiServer/readManifests.js';
import { definitionFromCrd } from '../testing/fakeApiServer/registry/customResourceDefinitions.js';
import { readRecording } from '../testing/record/recording.js';

const USAGE = `usage: rxkube-fake-apiserver [options]

A fake Kubernetes API server (list, watch, writes, discovery; HTTPS with a generated CA and a
bearer token by default). Prints "listening on URL" and runs until killed.

options:
  --port N               port on 127.0.0.1 (0, the default, picks a free one)
  --kubeconfig FILE      write a kubeconfig for the server (CA data and token included) to FILE
  --client-cert-auth     client-certificate mode, as kind and kubeadm clusters: the kubeconfig
                         carries a client certificate and key (user admin, group system:masters)
                         signed by the server's CA, and no token is accepted
  --http                 serve plain HTTP instead of HTTPS
  --seed pods=N          create N realistic pods spread over namespaces ns-0..ns-49
  --random-seed N        seed of the server's random choices (default 1)
  --history-limit N      changes kept for watch resumption (default 10000)
  --bookmark-interval-ms N  bookmark interval on watches that allow bookmarks (default 60000)
  --no-auth              accept requests without a token
  --authorization MODE   AlwaysAllow (the default) or RBAC: the stored Roles, ClusterRoles and
                         bindings authorize every request (the kubeconfig's user is in
                         system:masters); kubectl auth can-i and create token work in both
  --no-service-accounts  leave out kube's ServiceAccount machinery (on by default here, as on a
                         cluster: each namespace's default ServiceAccount and kube-root-ca.crt,
                         Pods run as a ServiceAccount with its token mounted; off with --replay)
  --crd FILE             serve the CustomResourceDefinitions in FILE (YAML or JSON; repeatable)
  --replay FILE          seed the server with a recording (recordTraffic's JSON lines) and play its
                         events at their recorded times
  -h, --help             show this help

Faults can be driven over HTTP: POST /rxkube/faults/{dropWatches|dropEvents|sendWatchError|failNext|
compact|stallWatches|slowEvents|malformedLine|bookmarkNow|reset} with a JSON body (see docs/testing.md).`;

function fail(message: string): never {
  process.stderr.write(`rxkube-fake-apiserver: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function int(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) fail(`${name} wants a non-negative integer, got "${v}"`);
  return n;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        kubeconfig: { type: 'string' },
        http: { type: 'boolean' },
        seed: { type: 'string', multiple: true },
        'random-seed': { type: 'string' },
        'history-limit': { type: 'string' },
        'bookmark-interval-ms': { type: 'string' },
        'no-auth': { type: 'boolean' },
        crd: { type: 'string', multiple: true },
        replay: { type: 'string' },
        'client-cert-auth': { type: 'boolean' },
        authorization: { type: 'string' },
        'no-service-accounts': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (values['client-cert-auth'] && (values.http || values['no-auth']))
    fail('--client-cert-auth needs HTTPS with authentication (not --http or --no-auth)');
  const authorization = values.authorization ?? 'AlwaysAllow';
  if (authorization !== 'AlwaysAllow' && authorization !== 'RBAC') fail(`--authorization wants AlwaysAllow or RBAC, got "${authorization}"`);
  if (authorization === 'RBAC' && values['no-auth']) fail('--authorization RBAC needs authentication (not --no-auth)');
  let seedPods = 0;
  for (const s of values.seed ?? []) {
    const m = /^pods=(\d+)$/.exec(s);
    if (!m) fail(`--seed wants pods=N, got "${s}"`);
    seedPods = Number(m[1]);
  }
  const api = await startFakeApiServer({
    http: values.http ?? false,
    port: int('--port', values.port) ?? 0,
    seed: int('--random-seed', values['random-seed']),
    historyLimit: int('--history-limit', values['history-limit']),
    bookmarkIntervalMs: int('--bookmark-interval-ms', values['bookmark-interval-ms']),
    tokens: values['no-auth'] ? false : undefined,
    clientCertificateAuth: values['client-cert-auth'] ?? false,
    authorization,
    seedPods,
    // A replay serves the recording's objects, nothing the recorded cluster did not have.
    serviceAccounts: !values['no-service-accounts'] && values.replay === undefined,
  });
  for (const file of values.crd ?? []) {
    for (const obj of await readManifests(file)) {
      if (obj['kind'] !== 'CustomResourceDefinition') {
        await api.close();
        fail(`--crd ${file}: found a ${String(obj['kind'])}, not a CustomResourceDefinition`);
      }
      if (!definitionFromCrd(obj)) {
        await api.close();
        fail(`--crd ${file}: a CustomResourceDefinition needs spec.group, spec.names.plural and kind, spec.scope and a served version`);
      }
      try {
        api.create('customresourcedefinitions.apiextensions.k8s.io', obj);
      } catch (e) {
        // A CRD the server refuses (a schema that is not structural, a rule that does not compile).
        await api.close();
        fail(`--crd ${file}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
  if (values.replay) {
    let recording;
    try {
      recording = await readRecording(values.replay);
    } catch (e) {
      await api.close();
      fail(`--replay ${values.replay}: ${e instanceof Error ? e.message : String(e)}`);
    }
    api.replay(recording);
  }
  if (values.kubeconfig) await api.writeKubeConfig(values.kubeconfig);
  const stop = () => {
    void api.close().then(() => process.exit(0));
  };
  // Before the line that tells a caller it may stop us: a SIGTERM sent as soon as it reads the line
  // can arrive before the next statement runs, and would kill the process without a clean close.
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stdout.write(`listening on ${api.url}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`rxkube-fake-apiserver: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
