// The built app in headless Chromium (Debian's), with rxkube's fake API server behind the app's proxy.
// Needs: `npm run build` at the repository root, `npm ci && npm run build` here, and Chromium
// (CHROMIUM=path, default /usr/lib/chromium/chromium). Run: `npm run e2e`. Saves screenshots to
// ARTIFACTS (default <repo>/.cache/artifacts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { realisticPod, startFakeApiServer } from 'rxkube/testing';
import { startAppServer } from './appServer.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const artifacts = process.env.ARTIFACTS ?? join(repo, '.cache', 'artifacts');
const browserDir = join(here, '..', 'dist', 'rxkube-angular-example', 'browser');
const executablePath =
  process.env.CHROMIUM ?? ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));
/** The fake server's bookmark interval, told to the page (?bookmarkIntervalMs) as the expected one. */
const BOOKMARK_MS = 1000;
/** The page's grace beyond that (?graceSeconds). */
const GRACE_S = 2;
/** The bar for a change to reach the page. */
const LIVE_MS = 1000;

const NS = 'shop';
const pod = (name, labels = { app: 'web' }, phase = 'Running') => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: NS, labels },
  spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx:1.27' }] },
  status: { phase },
});

let api, app, browser, page;

/** Waits until `fn(arg)` is true in the page, at most `timeout` ms; returns the time it took. */
async function within(timeout, fn, arg, what) {
  const t0 = performance.now();
  try {
    await page.waitForFunction(fn, arg, { timeout, polling: 'raf' });
  } catch (e) {
    await page.screenshot({ path: join(artifacts, 'angular-e2e-failure.png') });
    throw new Error(`${what}: not seen within ${timeout} ms (${e.message.split('\n')[0]})`);
  }
  return Math.round(performance.now() - t0);
}
const rowExists = (name) => !!document.querySelector(`tr[data-pod="${name}"]`);
const rowGone = (name) => !document.querySelector(`tr[data-pod="${name}"]`);
const rowHas = ([name, text]) => document.querySelector(`tr[data-pod="${name}"]`)?.textContent?.includes(text) ?? false;
const textOf = ([selector, text]) => document.querySelector(selector)?.textContent?.includes(text) ?? false;

describe('the Angular example in Chromium', { timeout: 180_000 }, () => {
  before(async () => {
    assert.ok(executablePath, 'Chromium not found: apt-get install chromium, or set CHROMIUM');
    assert.ok(existsSync(join(browserDir, 'index.html')), `no build in ${browserDir}: run npm run build`);
    mkdirSync(artifacts, { recursive: true });
    api = await startFakeApiServer({ http: true, bookmarkIntervalMs: BOOKMARK_MS, namespaces: [NS, 'ns-0', 'ns-1', 'ns-2', 'ns-3'] });
    // Seeded with their status (a create through the API resets a Pod's status, as kube's does).
    const seeded = { withStatus: true };
    for (let i = 0; i < 6; i++) api.create('pods', pod(`web-${i}`, { app: 'web', shard: String(i % 2) }, i === 5 ? 'Pending' : 'Running'), seeded);
    api.create('pods', pod('db-0', { app: 'db' }), seeded);
    for (let i = 0; i < 40; i++) api.create('pods', realisticPod(i, `ns-${i % 4}`), seeded);
    app = await startAppServer({ root: browserDir, upstream: api.url });
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    if (process.env.E2E_DEBUG) page.on('request', (r) => console.log(new Date().toISOString(), 'request', r.url()));
    if (process.env.E2E_DEBUG) page.on('requestfailed', (r) => console.log(new Date().toISOString(), 'failed', r.url(), r.failure()?.errorText));
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`${app.url}/ns/${NS}?bookmarkIntervalMs=${BOOKMARK_MS}&graceSeconds=${GRACE_S}`);
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await api?.close();
  });

  test("shows the server's pods with counts per phase", async () => {
    const names = api.list('pods', NS).items.map((p) => p.metadata.name).sort();
    await within(10_000, (n) => document.querySelectorAll('tr[data-pod]').length === n, names.length, 'the first list');
    const shown = await page.$$eval('tr[data-pod]', (rows) => rows.map((r) => r.getAttribute('data-pod')));
    assert.deepEqual(shown, names);
    assert.equal(await page.textContent('[data-phase="Running"]'), 'Running: 6');
    assert.equal(await page.textContent('[data-phase="Pending"]'), 'Pending: 1');
    assert.equal(await page.textContent('[data-testid="status"]'), 'live');
    await within(5_000, () => document.querySelectorAll('nav a').length === 5, undefined, 'the namespaces');
  });

  test('a create, a label change and a delete appear within 1 s', async () => {
    api.create('pods', pod('web-new'));
    const created = await within(LIVE_MS, rowExists, 'web-new', 'the created pod');
    api.patch('pods', NS, 'web-1', { metadata: { labels: { tier: 'gold' } } });
    const relabelled = await within(LIVE_MS, rowHas, ['web-1', 'tier=gold'], 'the label change');
    api.delete('pods', NS, 'web-new');
    const deleted = await within(LIVE_MS, rowGone, 'web-new', 'the delete');
    console.log(`# seen in the page after: create ${created} ms, label change ${relabelled} ms, delete ${deleted} ms`);
  });

  test('recovers from a 410 (history compacted, watch expired)', async () => {
    api.faults.compact();
    assert.ok(api.faults.sendWatchError({ code: 410 }) >= 1, 'no open watch got the 410');
    api.create('pods', pod('after-410'));
    const ms = await within(10_000, rowExists, 'after-410', 'a pod created after the 410');
    console.log(`# after a 410: a new pod seen in ${ms} ms`);
  });

  test('recovers from a connection the proxy cut silently (bookmark liveness)', async () => {
    await api.waitForWatches(1);
    assert.ok(app.cutUpstream() >= 1, 'no proxied watch to cut');
    api.patch('pods', NS, 'web-2', { metadata: { labels: { cut: 'yes' } } });
    // The page hears nothing on its (now dead) watch: only the reflector's bookmark check can
    // notice, after the bookmark interval plus the grace; then it watches again from its RV after
    // its backoff (0.8-1.6 s, doubled by the 410 before: at most 3.2 s; the rest is slack for a busy CI).
    const bound = BOOKMARK_MS + GRACE_S * 1000;
    const ms = await within(bound + 6_000, rowHas, ['web-2', 'cut=yes'], 'a change after the cut');
    console.log(`# after a silent cut: a change seen in ${ms} ms (dead after ${bound} ms of silence)`);
    // Not sooner than the silence bound allows (the last bookmark came at most 1 s before the cut):
    // the cut really left the page deaf, and it was the liveness check that brought it back.
    assert.ok(ms >= bound - BOOKMARK_MS - 100, `seen after ${ms} ms: the cut did not silence the watch`);
    api.create('pods', pod('after-cut'));
    await within(LIVE_MS, rowExists, 'after-cut', 'a create on the new watch');
  });

  test('the detail view is live, and leaving and coming back shows live data', async () => {
    await page.click('tr[data-pod="web-3"] a');
    await within(LIVE_MS, textOf, ['[data-testid="detail-name"]', 'web-3'], 'the detail view');
    api.patch('pods', NS, 'web-3', { metadata: { labels: { release: 'canary' } } });
    await within(LIVE_MS, textOf, ['[data-testid="detail-labels"]', 'release=canary'], 'a label change in the detail view');
    api.patch('pods', NS, 'web-3', { status: { phase: 'Failed' } }, 'merge', 'status');
    await within(LIVE_MS, textOf, ['[data-testid="detail-phase"]', 'Failed'], 'a phase change in the detail view');
    await page.screenshot({ path: join(artifacts, 'angular-e2e-detail.png') });

    // Away (back to the table), a change, then the table shows it.
    await page.click(`a[href="/ns/${NS}"]`);
    await within(LIVE_MS, rowExists, 'web-3', 'the table again');
    await within(LIVE_MS, rowHas, ['web-3', 'Failed'], 'the phase changed in the detail view, in the table');
    api.create('pods', pod('back-1'));
    await within(LIVE_MS, rowExists, 'back-1', 'a create after coming back');

    // To another namespace and back: what changed meanwhile, and what changes next.
    await page.click('nav a[href="/ns/ns-1"]');
    await within(LIVE_MS, () => !!document.querySelector('tr[data-pod]') && !document.querySelector('tr[data-pod="web-0"]'), undefined, 'ns-1');
    api.patch('pods', NS, 'web-0', { metadata: { labels: { away: 'true' } } });
    await page.click(`nav a[href="/ns/${NS}"]`);
    await within(LIVE_MS, rowHas, ['web-0', 'away=true'], 'a change made while away');
    api.delete('pods', NS, 'web-4');
    await within(LIVE_MS, rowGone, 'web-4', 'a delete after coming back');
    const counts = await page.textContent('[data-testid="phases"]');
    assert.match(counts, /Failed: 1/);

    // The detail view of a deleted pod says so, live.
    await page.click('tr[data-pod="back-1"] a');
    await within(LIVE_MS, textOf, ['[data-testid="detail-name"]', 'back-1'], 'the detail of back-1');
    api.delete('pods', NS, 'back-1');
    await within(LIVE_MS, textOf, ['[data-testid="detail-gone"]', 'No such pod'], 'the deletion in the detail view');
    await page.click(`a[href="/ns/${NS}"]`);
    await within(LIVE_MS, rowGone, 'back-1', 'the table without back-1');
    // Views come and go; the app's one informer keeps one watch.
    assert.equal(api.openWatches(), 1);
    await page.screenshot({ path: join(artifacts, 'angular-e2e.png'), fullPage: true });
  });
});
