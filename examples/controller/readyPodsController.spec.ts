// The ready-pods controller against the fake API server: it labels, follows the Pods, records Events.
import { describe, expect, it } from '@jest/globals';
import { AppsV1Api, EventsV1Api, type V1Deployment } from '@kubernetes/client-node';
import { asyncScheduler, filter, firstValueFrom, interval, take, timeout } from 'rxjs';
import { clientNodeEventSink, eventRecorder, sharedInformerFactory } from '../../lib/index.js';
import { startFakeApiServer } from '../../lib/testing/index.js';
import { createDeployment, runControllerExample, setReady } from './main.js';
import { READY_PODS_LABEL, readyPodsController } from './readyPodsController.js';

/** Resolves once `check` holds (polled every 10 ms), fails after 10 s: a bound, not a timing assertion. */
const until = (check: () => boolean) => firstValueFrom(interval(10).pipe(filter(check), take(1), timeout(10_000)));

describe('controller example: a label with the number of ready Pods', () => {
  it('labels a Deployment, follows its Pods becoming ready, and records Events', async () => {
    const api = await startFakeApiServer();
    createDeployment(api, 'shop', 'web', 2);
    const kc = api.kubeConfig();
    const factory = sharedInformerFactory(kc);
    const recorder = eventRecorder({ sink: clientNodeEventSink(kc.makeApiClient(EventsV1Api)), reportingController: 'test', reportingInstance: '0' });
    const ctl = readyPodsController(factory, { apps: kc.makeApiClient(AppsV1Api), recorder });
    ctl.start();
    const label = () => api.get<V1Deployment>('deployments.apps', 'shop', 'web')?.metadata?.labels?.[READY_PODS_LABEL];
    await until(() => label() === '0');
    setReady(api, 'shop', 'web-5d8f-0', true);
    setReady(api, 'shop', 'web-5d8f-1', true);
    await until(() => label() === '2');
    await until(() => api.list('events.events.k8s.io', 'shop').items.length >= 2);
    await ctl.stop();
    recorder.close();
    await factory.shutdown();
    await api.close();
  });

  it('plays the scenario: pods become ready, a scale-up, a failing pod, a deletion', async () => {
    // How the steps interleave with reconciles depends on the machine; where it ends does not.
    const labels = await runControllerExample({ stepMs: 300 }, { out: { write: () => true }, scheduler: asyncScheduler });
    expect([...labels].sort()).toEqual([
      ['shop/api', '3'],
      ['shop/web', '2'],
    ]);
  });
});
