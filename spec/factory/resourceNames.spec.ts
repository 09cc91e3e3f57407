import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { firstValueFrom } from 'rxjs';
import '../../lib/transport/clientNode.js'; // registers the KubeConfig transport, as importing 'rxkube' does
import { builtInResources } from '../../lib/factory/builtInResources.js';
import {
  sharedInformerFactory,
  type SharedInformerFactory,
} from '../../lib/factory/sharedInformerFactory.js';
import type { Resource } from '../../lib/listwatch/resource.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

let api: FakeApiServer;
let factory: SharedInformerFactory | undefined;

beforeEach(async () => {
  api = await startFakeApiServer();
});

afterEach(async () => {
  await factory?.shutdown();
  factory = undefined;
  await api.close();
});

const widgets: Resource = {
  group: 'example.com',
  version: 'v1',
  plural: 'widgets',
  kind: 'Widget',
  namespaced: true,
};

describe('factory informers name their resource in error messages', () => {
  it.each([
    ['pods', builtInResources.pods],
    ['deployments.apps', builtInResources.deployments],
  ])('%s: a failed list says which resource failed', async (name, resource) => {
    api.faults.failNext(1, { code: 500, verb: 'list', resource: name });
    factory = sharedInformerFactory(api.kubeConfig(), {
      informerOptions: { reflector: { random: () => 0 } },
    });
    const inf = factory.informerFor<KubeObject>(resource);
    const firstError = firstValueFrom(inf.errors$);
    factory.start();
    const error = await firstError;
    expect(error.message.startsWith(`${name}: `)).toBe(true);
    expect(error.message).not.toContain('<unspecified>');
  });

  it('widgets.example.com: a resource the server does not serve is named too', async () => {
    factory = sharedInformerFactory(api.kubeConfig());
    const inf = factory.informerFor<KubeObject>(widgets);
    const firstError = firstValueFrom(inf.errors$);
    factory.start();
    const error = await firstError;
    expect(error.message.startsWith('widgets.example.com: ')).toBe(true);
    expect(error.message).not.toContain('<unspecified>');
  });
});
