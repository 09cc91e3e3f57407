// KEP-5915 end to end, against rxkube's fake API server over real HTTP with @kubernetes/client-node:
// an upstream writer's trace context in an object's annotation links the first controller's
// reconcile to it; that controller's write is a child span of its reconcile, with the
// resourceVersion the server answered, and carries the write's span in the annotation of the
// object it creates; the second controller (traced separately, as another process would be)
// links its reconcile to that write through the annotation alone. Waits are bounded polls on state.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { CoreV1Api } from '@kubernetes/client-node';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { asyncLocalWriteScope } from '../../lib/node/asyncLocalWriteScope.js';
import '../../lib/transport/clientNode.js';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { sharedInformerFactory, type SharedInformerFactory } from '../../lib/factory/sharedInformerFactory.js';
import { controller, type Controller } from '../../lib/controller/controller.js';
import type { ChangePredicate } from '../../lib/controller/changePredicate.js';
import { TRACEPARENT_ANNOTATION, formatTraceparent } from '../../lib/tracing/traceContext.js';
import { setWriteScope } from '../../lib/write/writeScope.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';
import { inMemoryTracing, type InMemoryTracing } from './support.js';

let api: FakeApiServer;
let factory: SharedInformerFactory | undefined;
const controllers: Controller[] = [];
const tracings: InMemoryTracing[] = [];

beforeEach(async () => {
  setWriteScope(asyncLocalWriteScope()); // what importing 'rxkube' on Node does
  api = await startFakeApiServer({ bookmarkIntervalMs: 0 });
});

afterEach(async () => {
  for (const c of controllers.splice(0)) await c.stop();
  await factory?.shutdown();
  factory = undefined;
  await api.close();
  for (const t of tracings.splice(0)) await t.shutdown();
  setWriteScope(undefined);
});

const tier =
  (t: string): ChangePredicate<ConfigMap> =>
  (n) =>
    (n.type === 'update' ? n.newObject : (n.object as ConfigMap)).metadata?.labels?.['tier'] === t;
const reconcileOf = (spans: ReadableSpan[], key: string) => spans.filter((s) => s.kind === SpanKind.CONSUMER && s.attributes['rxkube.reconcile.key'] === key);

describe('KEP-5915 propagation between two controllers (fake API server)', () => {
  it('follows one trace from an upstream write through a controller that creates an object to the controller that reconciles it', async () => {
    const upstream = { traceId: 'a1'.repeat(16), spanId: 'b2'.repeat(8), traceFlags: 1 };
    api.create('configmaps', {
      metadata: { name: 'app', namespace: 'default', labels: { tier: 'app' }, annotations: { [TRACEPARENT_ANNOTATION]: formatTraceparent(upstream) } },
      data: { size: '3' },
    });
    const kc = api.kubeConfig();
    const core = kc.makeApiClient(CoreV1Api);
    factory = sharedInformerFactory(kc, { namespace: 'default', logger: false });
    const configMaps = factory.informerFor<ConfigMap>(builtInResources.configMaps);
    const a = inMemoryTracing(true);
    const b = inMemoryTracing(true);
    tracings.push(a, b);
    const seenByB: string[] = [];
    controllers.push(
      controller<ConfigMap>({
        name: 'apps',
        for: configMaps,
        predicates: [tier('app')],
        tracing: a.tracing,
        logger: false,
        reconcile: async (key, { object }) => {
          if (object === undefined || configMaps.getByKey(`${key}-config`) !== undefined) return;
          // A create through client-node's API client, as a user writes it: no ctx handed over.
          await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: `${object.metadata?.name}-config`, labels: { tier: 'config' } }, data: object.data } });
        },
      }),
      controller<ConfigMap>({
        name: 'configs',
        for: configMaps,
        predicates: [tier('config')],
        tracing: b.tracing,
        logger: false,
        reconcile: (key) => void seenByB.push(key),
      }),
    );
    for (const c of controllers) c.start();
    await waitFor(() => seenByB.includes('default/app-config') && reconcileOf(b.spans(), 'default/app-config').length > 0, 'the second controller to reconcile app-config');

    // The first controller's reconcile: linked to the upstream write through the annotation.
    const [reconcileA] = reconcileOf(a.spans(), 'default/app');
    expect(reconcileA.name).toBe('reconcile apps');
    expect(reconcileA.links).toHaveLength(1);
    expect(reconcileA.links[0].context).toMatchObject({ ...upstream, isRemote: true });
    expect(reconcileA.links[0].attributes).toMatchObject({ 'rxkube.change.source': 'for', 'rxkube.change.type': 'ADDED', 'rxkube.change.cause': 'annotation', 'rxkube.object.name': 'app' });

    // Its write: a child span with the resourceVersion the server stored.
    const stored = api.get<ConfigMap>('configmaps', 'default', 'app-config');
    const create = a.spans().find((s) => s.name === 'create');
    expect(create?.kind).toBe(SpanKind.CLIENT);
    expect(create?.parentSpanContext?.spanId).toBe(reconcileA.spanContext().spanId);
    expect(create?.spanContext().traceId).toBe(reconcileA.spanContext().traceId);
    expect(create?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.path': '/api/v1/namespaces/default/configmaps',
      'http.response.status_code': 201,
      'rxkube.object.name': 'app-config',
      'rxkube.object.resource_version': stored?.metadata?.resourceVersion,
    });
    expect(create?.status.code).not.toBe(SpanStatusCode.ERROR);
    // The object carries the write's span (KEP-5915's annotation, W3C traceparent).
    expect(stored?.metadata?.annotations?.[TRACEPARENT_ANNOTATION]).toBe(formatTraceparent(create!.spanContext()));

    // The second controller knows nothing of the first's spans: it links through the annotation.
    const [reconcileB] = reconcileOf(b.spans(), 'default/app-config');
    expect(reconcileB.links.map((l) => [l.context.traceId, l.context.spanId, l.attributes?.['rxkube.change.cause'], l.attributes?.['rxkube.object.resource_version']])).toEqual([
      [reconcileA.spanContext().traceId, create!.spanContext().spanId, 'annotation', stored?.metadata?.resourceVersion],
    ]);
  });
});
