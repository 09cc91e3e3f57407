import type { ResourceType } from './resources.js';
import { sameJson } from './sameContent.js';
import type { StoredObject } from './storedObject.js';

// A /status write replaces the stored object's status and nothing else. Stored objects keep their
// status last and know where it starts, so the new JSON is the old one with a new resourceVersion
// and a new status tail: no parse of the (often 4 KB) rest, which is what a status-heavy workload
// (kubelets, controllers) would otherwise pay on every write.

/**
 * The object a `/status` write of `status` makes from `old`, as a builder for the new revision;
 * `old` itself when the status is unchanged (a no-op write); undefined when `old` has no status
 * (the caller takes the general path). Field selectors on `status.*` are recomputed, the others kept.
 *
 * @example
 * ```ts
 * const next = replaceStatus(podsType, old, { phase: 'Running' });
 * if (next && next !== old) storage.putBuilt(podsType, next);
 * ```
 */
export function replaceStatus(type: ResourceType, old: StoredObject, status: unknown): ((rv: number) => StoredObject) | StoredObject | undefined {
  if (old.statusIndex === undefined || status === undefined || status === null) return undefined;
  const text = JSON.stringify(status);
  if (text === undefined) return undefined;
  const oldTail = old.json.slice(old.statusIndex);
  const newTail = `,"status":${text}}`;
  // The same status in another key order is no change either (kube compares decoded objects).
  if (oldTail === newTail || sameJson(JSON.parse(oldTail.slice(10, -1)), status)) return old;
  const oldRv = String(old.rv);
  const head = old.json.slice(old.rvIndex + oldRv.length, old.statusIndex);
  let fields = old.fields;
  const statusFields = Object.entries(type.fieldSelectors).filter(([f]) => f.startsWith('status.'));
  if (statusFields.length > 0) {
    const view = { status };
    const next: { [k: string]: string } = { ...old.fields };
    for (const [f, get] of statusFields) {
      const v = get(view);
      if (v === undefined) delete next[f];
      else next[f] = v;
    }
    fields = next;
  }
  return (rv) => {
    const rvText = String(rv);
    const prefix = old.json.slice(0, old.rvIndex) + rvText + head;
    return { ...old, rv, json: prefix + newTail, statusIndex: prefix.length, fields };
  };
}
