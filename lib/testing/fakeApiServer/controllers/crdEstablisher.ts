// kube-apiserver's apiextensions controllers accept a CRD's names and mark it Established shortly
// after it is created (a MODIFIED event of its status): clients that wait for Established (kubectl
// wait --for condition=established, rxkube's followCrd) depend on it. This fake does the same, one
// scheduler tick after the write. The annotation below keeps a CRD from ever being established
// (as a name conflict does in kube), for tests of clients that must wait.
import type { SchedulerLike } from 'rxjs';
import { customResourceDefinitionType, definitionFromCrd } from '../registry/customResourceDefinitions.js';
import type { Change } from '../storage/history.js';
import type { Registry } from '../registry/store.js';
import { inBackground } from './inBackground.js';
import type { JsonObject } from '../resources.js';
import { parseStored } from '../storage/storedObject.js';

/** A CRD with this annotation set to `"true"` is never marked Established by the fake API server. */
export const neverEstablishAnnotation = 'fake.rxkube.io/never-establish';

interface Condition {
  readonly type?: unknown;
  readonly status?: unknown;
}

const established = (crd: JsonObject): boolean =>
  ((crd['status'] as { conditions?: Condition[] } | undefined)?.conditions ?? []).some((c) => c.type === 'Established');

/**
 * A storage listener that marks each new (or changed, not yet marked) valid CRD NamesAccepted and
 * Established, with `acceptedNames` and `storedVersions`, through the status subresource.
 *
 * @example
 * ```ts
 * storage.onChange(establishCustomResourceDefinitions(registry, scheduler));
 * ```
 */
export function establishCustomResourceDefinitions(registry: Registry, scheduler: SchedulerLike, now: () => string): (change: Change) => void {
  return (change) => {
    if (change.resource.id !== customResourceDefinitionType.id || change.type === 'DELETED') return;
    const crd = JSON.parse(change.obj.json) as JsonObject;
    const meta = crd['metadata'] as { name?: string; annotations?: Record<string, string>; deletionTimestamp?: string } | undefined;
    if (established(crd) || meta?.deletionTimestamp || meta?.annotations?.[neverEstablishAnnotation] === 'true') return;
    if (!definitionFromCrd(crd) || typeof meta?.name !== 'string') return;
    const name = meta.name;
    scheduler.schedule(() => {
      let current: JsonObject;
      try {
        current = parseStored(registry.get(customResourceDefinitionType, '', name));
      } catch {
        return; // deleted meanwhile
      }
      if (established(current)) return;
      const spec = current['spec'] as { names?: unknown; versions?: Array<{ name?: string; storage?: boolean }> };
      const storage = (spec.versions ?? []).filter((v) => v.storage === true).map((v) => v.name);
      const at = now();
      const status = {
        ...((current['status'] as JsonObject | undefined) ?? {}),
        conditions: [
          { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: at },
          { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: at },
        ],
        acceptedNames: spec.names,
        storedVersions: storage,
      };
      try {
        inBackground(registry.update(customResourceDefinitionType, '', name, { ...current, status }, 'status'));
      } catch {
        // changed meanwhile (a conflict): the change that beat us is seen by this listener again
      }
    });
  };
}
