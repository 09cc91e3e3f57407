import type { EventsV1Api, EventsV1Event } from '@kubernetes/client-node';
import type { ObservableInput } from 'rxjs';
import type { JsonPatchOperation } from './jsonPatch.js';
import type { ObjectReference } from './objectReference.js';

/**
 * An `events.k8s.io/v1` Event as the {@link eventRecorder} writes it (times are RFC 3339 with
 * microseconds, as the API server's `MicroTime` requires).
 *
 * @example
 * ```ts
 * const ev: KubeEvent = {
 *   apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'web.17f0', namespace: 'shop' },
 *   eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'example.com/labeller', reportingInstance: 'pod-1',
 *   type: 'Normal', reason: 'Labelled', action: 'Patch', regarding: { kind: 'Deployment', name: 'web', namespace: 'shop' },
 * };
 * ```
 */
export interface KubeEvent {
  apiVersion: 'events.k8s.io/v1';
  kind: 'Event';
  metadata: { name: string; namespace: string; resourceVersion?: string };
  eventTime: string;
  series?: { count: number; lastObservedTime: string };
  reportingController: string;
  reportingInstance: string;
  type: 'Normal' | 'Warning';
  reason: string;
  action: string;
  note?: string;
  regarding: ObjectReference;
  related?: ObjectReference;
}

/**
 * Where the {@link eventRecorder} writes: create an Event, JSON-patch one (to update its series).
 * Promises or Observables. {@link clientNodeEventSink} makes one from client-node's `EventsV1Api`.
 *
 * @example
 * ```ts
 * const written: KubeEvent[] = [];
 * const sink: EventSink = { create: async (_ns, ev) => void written.push(ev), patch: async () => {} };
 * ```
 */
export interface EventSink {
  create(namespace: string, event: KubeEvent): ObservableInput<unknown>;
  patch(namespace: string, name: string, body: JsonPatchOperation[]): ObservableInput<unknown>;
}

/**
 * An {@link EventSink} over client-node's `EventsV1Api` (1.4 and 2.0). Series updates are JSON
 * patches, client-node's default patch type, so no header options are needed.
 *
 * @example
 * ```ts
 * import { EventsV1Api, KubeConfig } from '@kubernetes/client-node';
 * import { clientNodeEventSink, eventRecorder } from 'rxkube';
 *
 * declare const kc: KubeConfig;
 * const recorder = eventRecorder({
 *   sink: clientNodeEventSink(kc.makeApiClient(EventsV1Api)),
 *   reportingController: 'example.com/labeller',
 *   reportingInstance: 'labeller-0',
 * });
 * ```
 */
export function clientNodeEventSink(api: EventsV1Api): EventSink {
  return {
    // client-node types eventTime as its V1MicroTime (a Date); a string in MicroTime format is sent as is.
    create: (namespace, event) => api.createNamespacedEvent({ namespace, body: event as unknown as EventsV1Event }),
    patch: (namespace, name, body) => api.patchNamespacedEvent({ namespace, name, body }),
  };
}
