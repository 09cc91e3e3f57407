// The ready-pods controller against the fake API server: it labels, follows the Pods, records Events.
import { describe, expect, it } from '@jest/globals';
import { AppsV1Api, EventsV1Api, type V1ConfigMap, type V1Deployment } from '@kubernetes/client-node';
import { asyncScheduler, filter, firstValueFrom, interval, take, throwError, timeout } from 'rxjs';
import { clientNodeEventSink, eventRecorder, sharedInformerFactory } from 'rxkube';
import { startFakeApiServer } from 'rxkube/testing';
import { createDeployment, runControllerExample, setReady } from './main.js';
import { FIELD_MANAGER, READY_PODS_CONDITION, READY_PODS_LABEL, childName, readyPodsController } from './readyPodsController.js';

/** Resolves once `check` holds (polled every 10 ms), fails after 20 s naming `what`: a bound, not a timing assertion. */
const until = (check: () => boolean, what = 'the condition') =>
  firstValueFrom(interval(10).pipe(filter(check), take(1), timeout({ first: 20_000, with: () => throwError(() => new Error(`timed out waiting for ${what}`)) })));

describe('controller example: a label with the number of ready Pods', () => {
  it('applies its status condition and owned child, labels, follows the Pods becoming ready, and records Events', async () => {
    const api = await startFakeApiServer({ namespaces: ['shop'] });
    createDeployment(api, 'shop', 'web', 2);
    const kc = api.kubeConfig();
    const factory = sharedInformerFactory(kc);
    const recorder = eventRecorder({ sink: clientNodeEventSink(kc.makeApiClient(EventsV1Api)), reportingController: 'test', reportingInstance: '0' });
    const ctl = readyPodsController(factory, { kubeConfig: kc, apps: kc.makeApiClient(AppsV1Api), recorder });
    ctl.start();
    const label = () => api.get<V1Deployment>('deployments.apps', 'shop', 'web')?.metadata?.labels?.[READY_PODS_LABEL];
    await until(() => label() === '0', 'the label 0');
    setReady(api, 'shop', 'web-5d8f-0', true);
    setReady(api, 'shop', 'web-5d8f-1', true);
    await until(() => label() === '2', 'the label 2');
    // The owned child, applied: the controller's fields only, an owner reference to the Deployment.
    await until(() => api.get<V1ConfigMap>('configmaps', 'shop', childName('web'))?.data?.ready === '2', 'the ConfigMap');
    const child = api.get<V1ConfigMap>('configmaps', 'shop', childName('web'))!;
    const web = api.get<V1Deployment>('deployments.apps', 'shop', 'web')!;
    expect(child.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'Deployment', name: 'web', uid: web.metadata?.uid, controller: true })]);
    expect(child.metadata?.managedFields?.map((e) => [e.manager, e.operation])).toEqual([[FIELD_MANAGER, 'Apply']]);
    // The condition is the controller's, owned through /status.
    await until(() => api.get<V1Deployment>('deployments.apps', 'shop', 'web')?.status?.conditions?.[0]?.message === '2 of 2 selected pods are ready', 'the condition');
    const owners = api.get<V1Deployment>('deployments.apps', 'shop', 'web')!.metadata!.managedFields!;
    expect(owners.find((e) => e.manager === FIELD_MANAGER && e.subresource === 'status')?.fieldsV1).toEqual({
      'f:status': { 'f:conditions': { [`k:{"type":"${READY_PODS_CONDITION}"}`]: { '.': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} } } },
    });
    // Deleting the child makes the controller apply it again (owns).
    api.delete('configmaps', 'shop', childName('web'));
    await until(() => api.get<V1ConfigMap>('configmaps', 'shop', childName('web'))?.data?.ready === '2', 'the ConfigMap applied again');
    await until(() => api.list('events.events.k8s.io', 'shop').items.length >= 2, 'two Events');
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
