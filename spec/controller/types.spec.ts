// Type-level checks: the controller's predicates and sources keep client-node's element types.
// These lines would not compile if a predicate or a source widened V1Deployment / V1Pod.
import { describe, expect, it } from '@jest/globals';
import { filter, type Observable } from 'rxjs';
import type { V1Deployment, V1Pod } from '@kubernetes/client-node';
import { and, annotationsChanged, generationChanged, labelsChanged, not, or, resourceVersionChanged, type ChangePredicate } from '../../lib/controller/changePredicate.js';
import { controller } from '../../lib/controller/controller.js';
import { watch } from '../../lib/controller/triggerSource.js';
import type { Informer } from '../../lib/informer/informer.js';
import { addNotification, updateNotification, type Notification } from '../../lib/informer/notification.js';

const d = (generation: number, labels: Record<string, string> = {}): V1Deployment => ({
  metadata: { name: 'web', namespace: 'ns', generation, resourceVersion: String(generation), labels },
});

describe('controller types', () => {
  it('combined predicates are ChangePredicate<V1Deployment> and filter a V1Deployment stream without widening it', () => {
    const specOrLabels: ChangePredicate<V1Deployment> = or(generationChanged, labelsChanged);
    const p: ChangePredicate<V1Deployment> = and<V1Deployment>(resourceVersionChanged, specOrLabels, not(annotationsChanged));
    const replicasChanged: ChangePredicate<V1Deployment> = (n) =>
      n.type !== 'update' || n.oldObject.spec?.replicas !== n.newObject.spec?.replicas;
    expect(p(updateNotification(d(1), d(2)))).toBe(true);
    expect(p(updateNotification(d(1), d(1)))).toBe(false);
    expect(specOrLabels(updateNotification(d(1), d(1, { a: 'b' })))).toBe(true);
    expect(p(addNotification(d(1), true))).toBe(false); // not(annotationsChanged) is false for adds
    expect(replicasChanged(addNotification(d(1), false))).toBe(true);
    const typed = (events$: Observable<Notification<V1Deployment>>): Observable<Notification<V1Deployment>> =>
      events$.pipe(filter(generationChanged));
    expect(typeof typed).toBe('function');
  });

  it('an Informer<V1Deployment> is a controller primary; an Informer<V1Pod> an owned or watched source', () => {
    const build = (deployments: Informer<V1Deployment>, pods: Informer<V1Pod>) =>
      controller({
        for: deployments,
        forKind: { apiVersion: 'apps/v1', kind: 'Deployment' },
        owns: [pods],
        watches: [watch(pods, (p: V1Pod) => [`${p.metadata?.namespace}/${p.spec?.nodeName ?? ''}`])],
        predicates: [generationChanged],
        reconcile: (_key, { object }) => {
          const replicas: number | undefined = object?.spec?.replicas;
          void replicas;
        },
      });
    expect(typeof build).toBe('function');
  });
});
