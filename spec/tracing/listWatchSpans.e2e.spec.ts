// List and watch requests as spans: an informer of a traced factory against the fake API server
// over real HTTP; a 410 on the watch makes the reflector relist, and that list says why.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import '../../lib/transport/clientNode.js';
import { sharedInformerFactory, type SharedInformerFactory } from '../../lib/factory/sharedInformerFactory.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';
import { inMemoryTracing, type InMemoryTracing } from './support.js';

let api: FakeApiServer;
let factory: SharedInformerFactory | undefined;
let traced: InMemoryTracing | undefined;

beforeEach(async () => {
  api = await startFakeApiServer({ bookmarkIntervalMs: 0 });
});

afterEach(async () => {
  await factory?.shutdown();
  factory = undefined;
  await api.close();
  await traced?.shutdown();
  traced = undefined;
});

describe('list and watch spans', () => {
  it('has a span per list (pages, items, resourceVersion, why) and per watch (events, how it ended)', async () => {
    for (let i = 0; i < 5; i++) api.create('configmaps', { metadata: { name: `c${i}`, namespace: 'default' } });
    traced = inMemoryTracing();
    const t = traced;
    factory = sharedInformerFactory(api.kubeConfig(), { namespace: 'default', logger: false, tracing: t.tracing, informerOptions: { pageSize: 2, reflector: { random: () => 0 } } });
    const cms = factory.configMaps();
    factory.start();
    await factory.waitForCacheSync();
    await api.waitForWatches(1);
    api.create('configmaps', { metadata: { name: 'c5', namespace: 'default' } });
    await waitFor(() => cms.listKeys().length === 6, 'the informer to see c5');
    api.faults.sendWatchError({ code: 410 });
    const lists = () => t.spans().filter((s) => s.name === 'list configmaps');
    await waitFor(() => lists().length === 2, () => `a second list, spans: ${t.spans().map((s) => s.name).join(', ')}`);
    await factory.shutdown();
    factory = undefined;

    const [initial, relist] = lists();
    expect(initial.kind).toBe(SpanKind.CLIENT);
    expect(initial.attributes).toMatchObject({
      'rxkube.resource': 'configmaps',
      'url.path': '/api/v1/namespaces/default/configmaps',
      'k8s.namespace.name': 'default',
      'rxkube.list.reason': 'initial',
      'rxkube.list.pages': 3,
      'rxkube.list.items': 5,
      'http.response.status_code': 200,
    });
    expect(relist.attributes).toMatchObject({ 'rxkube.list.reason': 'expired', 'rxkube.list.items': 6, 'http.response.status_code': 200 });
    const watches = t.spans().filter((s) => s.name === 'watch configmaps');
    // The first watch saw c5's ADDED and the 410's ERROR (the watch after the relist, if it started, ended with the shutdown).
    expect(watches.length).toBeGreaterThanOrEqual(1);
    expect(watches[0].attributes).toMatchObject({ 'rxkube.watch.events': 2, 'rxkube.request.resource_version': initial.attributes['rxkube.response.resource_version'] });
    expect(watches[0].status.code).not.toBe(SpanStatusCode.ERROR);
  });
});
