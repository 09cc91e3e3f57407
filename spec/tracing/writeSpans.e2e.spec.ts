// A reconcile's writes as child spans, over the fake API server: rxkube's apply (its own transport),
// a status write and a JSON patch through client-node's API clients, and ctx.track. KEP-5915's
// annotation goes on what sets an object (the apply), never on its status or a JSON patch.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SpanKind } from '@opentelemetry/api';
import { CustomObjectsApi } from '@kubernetes/client-node';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { asyncLocalWriteScope } from '../../lib/node/asyncLocalWriteScope.js';
import '../../lib/transport/clientNode.js';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { sharedInformerFactory, type SharedInformerFactory } from '../../lib/factory/sharedInformerFactory.js';
import { controller, type Controller } from '../../lib/controller/controller.js';
import { TRACEPARENT_ANNOTATION, formatTraceparent } from '../../lib/tracing/traceContext.js';
import { apply } from '../../lib/write/apply.js';
import { jsonPatch } from '../../lib/write/jsonPatch.js';
import { setWriteScope } from '../../lib/write/writeScope.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';
import { inMemoryTracing, type InMemoryTracing } from './support.js';

const widgets = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true, statusSubresource: true };
interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace: string; resourceVersion?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: { v: number };
  status?: { seen?: number };
}

let api: FakeApiServer;
let factory: SharedInformerFactory | undefined;
let ctl: Controller | undefined;
let traced: InMemoryTracing | undefined;

beforeEach(async () => {
  setWriteScope(asyncLocalWriteScope());
  api = await startFakeApiServer({ bookmarkIntervalMs: 0 });
  api.registerResource(widgets);
});

afterEach(async () => {
  await ctl?.stop();
  ctl = undefined;
  await factory?.shutdown();
  factory = undefined;
  await api.close();
  await traced?.shutdown();
  traced = undefined;
  setWriteScope(undefined);
});

describe("a reconcile's writes as child spans", () => {
  it('apply, status, JSON patch and ctx.track: children with the resourceVersion stored; the annotation only on the apply', async () => {
    api.create(widgets, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: { v: 1 } });
    const kc = api.kubeConfig();
    const custom = kc.makeApiClient(CustomObjectsApi);
    factory = sharedInformerFactory(kc, { namespace: 'default', logger: false });
    traced = inMemoryTracing(true);
    let done = false;
    ctl = controller<Widget>({
      name: 'widgets',
      for: factory.informerFor<Widget>(widgets),
      tracing: traced.tracing,
      logger: false,
      reconcile: async (_key, ctx) => {
        const w = ctx.object;
        if (w === undefined || done) return;
        done = true;
        await apply<ConfigMap>(kc, builtInResources.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w-config', namespace: 'default' }, data: { v: '1' } }, { fieldManager: 'widgets' });
        await custom.replaceNamespacedCustomObjectStatus({ ...widgets, namespace: 'default', name: 'w', body: { ...w, status: { seen: 1 } } });
        const fresh = api.get<Widget>(widgets, 'default', 'w') as Widget;
        await custom.patchNamespacedCustomObject({ ...widgets, namespace: 'default', name: 'w', body: jsonPatch(fresh, (d) => void (d.metadata.labels = { seen: 'yes' })) });
        await ctx.track(Promise.resolve(api.get<Widget>(widgets, 'default', 'w') as Widget));
      },
    });
    ctl.start();
    const spans = () => traced!.spans();
    await waitFor(() => spans().some((s) => s.kind === SpanKind.CONSUMER && s.attributes['rxkube.reconcile.result'] !== undefined) && done, 'the reconcile to end');
    const reconcile = spans().find((s) => s.kind === SpanKind.CONSUMER)!;
    const children = spans().filter((s) => s.parentSpanContext?.spanId === reconcile.spanContext().spanId);
    const widget = api.get<Widget>(widgets, 'default', 'w') as Widget;
    const cm = api.get<ConfigMap>('configmaps', 'default', 'w-config') as ConfigMap;
    expect(children.map((s) => [s.name, s.attributes['rxkube.object.name'], s.attributes['rxkube.object.resource_version'], s.attributes['http.response.status_code']])).toEqual([
      ['apply', 'w-config', cm.metadata?.resourceVersion, 201],
      ['update status', 'w', expect.any(String), 200],
      ['patch', 'w', widget.metadata.resourceVersion, 200],
      ['track', 'w', widget.metadata.resourceVersion, undefined],
    ]);
    // The apply set the ConfigMap: it carries the apply's span. The status write and the JSON patch carry nothing.
    expect(cm.metadata?.annotations?.[TRACEPARENT_ANNOTATION]).toBe(formatTraceparent(children[0].spanContext()));
    expect(widget.metadata.annotations?.[TRACEPARENT_ANNOTATION]).toBeUndefined();
  });
});
