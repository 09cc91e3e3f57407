// README's examples and prose claims, tested as the snippets are compiled (scripts/check-doc-snippets.mjs):
// its first example runs as it is written, in a process of its own (tsx; `rxkube` is the sources),
// against the fake API server through KUBECONFIG; each claim of its prose is quoted here, so that
// a change of wording fails this spec until the claim is checked again.
import { describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedInformerFactory } from '../../lib/node.js';
import { startFakeApiServer } from '../../lib/testing/index.js';
import { TSX } from '../testing/fakeApiServerBin.js';

const README = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
const prose = README.replace(/\s+/g, ' ');
const DIR = join(process.cwd(), '.cache', 'readme-spec');

/** Runs `file` with tsx until its output has `until` (then ends it) or it exits; bounded by jest's timeout. */
function runUntil(file: string, env: NodeJS.ProcessEnv, until: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(TSX, ['--tsconfig', 'tsconfig.spec.json', file], { env: { ...process.env, ...env } });
    let out = '';
    const take = (d: Buffer) => {
      out += d.toString();
      if (until.test(out)) child.kill();
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('exit', () => resolve(out));
  });
}

describe('README', () => {
  it('its first example runs as written: handlers see the pods, the lister counts the web pods', async () => {
    const first = /^```ts\n([\s\S]*?)^```$/m.exec(README)?.[1];
    expect(first).toContain('sharedInformerFactory(kc');
    const api = await startFakeApiServer({ namespaces: ['shop'] });
    try {
      for (const [name, app] of [['web-1', 'web'], ['web-2', 'web'], ['db-1', 'db']]) {
        api.create('pods', { metadata: { namespace: 'shop', name, labels: { app } }, spec: { containers: [{ name: 'c', image: 'i' }] } });
      }
      rmSync(DIR, { recursive: true, force: true });
      mkdirSync(DIR, { recursive: true });
      const kubeconfig = join(DIR, 'kubeconfig');
      await api.writeKubeConfig(kubeconfig);
      writeFileSync(join(DIR, 'first.ts'), first!);
      const out = await runUntil(join(DIR, 'first.ts'), { KUBECONFIG: kubeconfig }, /web pods/);
      expect(out).toContain('added web-1');
      expect(out).toContain('added db-1');
      expect(out).toContain('2 web pods');
    } finally {
      await api.close();
      rmSync(DIR, { recursive: true, force: true });
    }
  }, 120_000);

  it('"...the informer keeps retrying and says why in the log, one line per problem": the factory\'s wait resolves a map with false, the informer\'s false', async () => {
    expect(prose).toContain('the informer keeps retrying and says why in the log, one line per problem');
    expect(prose).toContain("the factory's `waitForCacheSync({ timeout: 30_000 })` resolves a map with `false` for each informer not synced (`Map(1) { 'pods' => false }`)");
    expect(prose).toContain("an informer's own `pods.waitForCacheSync({ timeout: 30_000 })` resolves `false`");
    // An unreachable server: a loopback port the closed fake API server leaves free.
    const gone = await startFakeApiServer();
    const kc = new KubeConfig();
    kc.loadFromString(gone.kubeConfigText());
    await gone.close();
    const lines: string[] = [];
    const factory = sharedInformerFactory(kc, { logger: { error: (message) => void lines.push(message) } });
    const pods = factory.pods();
    factory.start();
    const synced = await factory.waitForCacheSync({ timeout: 300 });
    expect(synced).toEqual(new Map([['pods', false]]));
    expect(await pods.waitForCacheSync({ timeout: 300 })).toBe(false);
    expect(pods.isStopped()).toBe(false); // still retrying
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^rxkube: pods: cannot reach the API server at https:\/\/127\.0\.0\.1:\d+ .*\(the informer keeps retrying\)/);
    expect(new Set(lines).size).toBe(lines.length); // the same problem is one line, not one per retry
    await factory.shutdown();
  });
});
