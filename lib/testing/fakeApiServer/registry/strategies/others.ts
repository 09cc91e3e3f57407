import { validateCustomResourceDefinition } from '../../schema/crdValidation.js';
import type { JsonObject } from '../../resources.js';
import { eventsV1FieldSelectors, CORE_EVENTS, toCoreEvent, toEventsV1Event } from '../events.js';
import { SPEC, type StrategyEntry } from './strategyEntry.js';

// The other API groups' registry strategies: what differs from the defaults (short names,
// categories, name rules, generation, status resets). A group not named here is served with the
// defaults (strategyEntry.ts).

const rbacName: StrategyEntry = { nameRule: 'pathSegment' };
// Structural schema, CEL cost, names, versions, printer columns, list-map keys (schema/crdValidation.ts).
const crdErrors = (obj: JsonObject) => validateCustomResourceDefinition(obj);

/**
 * Entries of the API groups besides core, apps and batch, by resource id.
 *
 * @example
 * ```ts
 * otherEntries.get('horizontalpodautoscalers.autoscaling')?.shortNames; // ['hpa']
 * ```
 */
export const otherEntries: ReadonlyMap<string, StrategyEntry> = new Map<string, StrategyEntry>([
  [
    'events.events.k8s.io',
    {
      shortNames: ['ev'],
      garbageCollection: 'none',
      fieldSelectors: eventsV1FieldSelectors,
      mirror: { resource: CORE_EVENTS, convert: toCoreEvent },
      hooks: { normalize: (e) => toEventsV1Event(toCoreEvent(e)) },
    },
  ],
  ['roles.rbac.authorization.k8s.io', rbacName],
  ['rolebindings.rbac.authorization.k8s.io', rbacName],
  ['clusterroles.rbac.authorization.k8s.io', rbacName],
  ['clusterrolebindings.rbac.authorization.k8s.io', rbacName],
  ['horizontalpodautoscalers.autoscaling', { shortNames: ['hpa'], categories: ['all'], generation: SPEC }],
  ['poddisruptionbudgets.policy', { shortNames: ['pdb'], generation: SPEC }],
  ['ingresses.networking.k8s.io', { shortNames: ['ing'], generation: SPEC }],
  ['networkpolicies.networking.k8s.io', { shortNames: ['netpol'], generation: SPEC }],
  ['storageclasses.storage.k8s.io', { shortNames: ['sc'] }],
  ['priorityclasses.scheduling.k8s.io', { shortNames: ['pc'] }],
  ['certificatesigningrequests.certificates.k8s.io', { shortNames: ['csr'] }],
  ['validatingadmissionpolicies.admissionregistration.k8s.io', { generation: SPEC }],
  ['mutatingadmissionpolicies.admissionregistration.k8s.io', { generation: SPEC }],
  [
    'customresourcedefinitions.apiextensions.k8s.io',
    {
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
      generation: SPEC,
      // The status is the apiextensions controllers' (crdEstablisher.ts): a create has none.
      status: { onCreate: () => undefined },
      schema: { decode: () => undefined, validate: crdErrors },
    },
  ],
]);
