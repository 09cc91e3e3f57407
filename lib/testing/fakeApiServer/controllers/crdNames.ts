// kube-apiserver's naming controller (apiextensions' NamingConditionController): a CRD's names are
// accepted first come, first served, within its API group. Each requested name (plural, singular,
// short names; kind and list kind) is accepted when it is the CRD's already or no other CRD of the
// group has it accepted; otherwise NamesAccepted is False with the reason of the last name that
// clashed (PluralConflict, SingularConflict, ShortNamesConflict, KindConflict, ListKindConflict) and
// kube's message (`"Widget" is already in use`). Pure: the CRD and its group's CRDs in, a decision out.
import type { JsonObject } from '../resources.js';

/**
 * A CRD condition without its transition time.
 *
 * @example
 * ```ts
 * const c: CrdCondition = { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
 * ```
 */
export interface CrdCondition {
  readonly type: 'NamesAccepted' | 'Established';
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
}

/**
 * What the naming controller decides for a CRD: the names it accepts (`status.acceptedNames`), its
 * NamesAccepted condition, and whether it may be established.
 *
 * @example
 * ```ts
 * const d: NamingDecision = crdNaming(crd, groupCrds);
 * if (d.namesAccepted.status === 'True') serve(crd);
 * ```
 */
export interface NamingDecision {
  readonly acceptedNames: JsonObject;
  readonly namesAccepted: CrdCondition;
}

const obj = (v: unknown): JsonObject => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/**
 * The names a CRD asks for, with the defaults kube applies (singular: the lower-cased kind, list
 * kind: the kind and `List`).
 *
 * @example
 * ```ts
 * requestedNames({ spec: { names: { plural: 'widgets', kind: 'Widget' } } }); // { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' }
 * ```
 */
export function requestedNames(crd: JsonObject): JsonObject {
  const names = obj(obj(crd.spec).names);
  const kind = str(names.kind);
  return {
    ...names,
    singular: str(names.singular) || kind.toLowerCase(),
    listKind: str(names.listKind) || `${kind}List`,
  };
}

/** The names the CRDs of a group have accepted: resources (plurals, singulars, short names) and kinds. */
function claimed(groupCrds: ReadonlyArray<JsonObject>): { resources: Set<string>; kinds: Set<string> } {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const c of groupCrds) {
    const accepted = obj(obj(c.status).acceptedNames);
    for (const r of [str(accepted.plural), str(accepted.singular), ...strings(accepted.shortNames)]) resources.add(r);
    for (const k of [str(accepted.kind), str(accepted.listKind)]) kinds.add(k);
  }
  return { resources, kinds };
}

// kube's equalToAcceptedOrFresh: the error text, or undefined when the name may be taken.
const clash = (requested: string, accepted: string, used: ReadonlySet<string>): string | undefined =>
  requested === accepted || !used.has(requested) ? undefined : `"${requested}" is already in use`;

/**
 * The naming controller's decision for `crd` given the CRDs of its group (itself included or not):
 * the accepted names and the NamesAccepted condition (kube's reasons and messages).
 *
 * @example
 * ```ts
 * crdNaming(gadgets, [widgets]).namesAccepted; // { type: 'NamesAccepted', status: 'False', reason: 'KindConflict', message: '"Widget" is already in use' }
 * ```
 */
export function crdNaming(crd: JsonObject, groupCrds: ReadonlyArray<JsonObject>): NamingDecision {
  const { resources, kinds } = claimed(groupCrds);
  const requested = requestedNames(crd);
  const accepted = obj(obj(crd.status).acceptedNames);
  const next: JsonObject = { plural: str(accepted.plural), kind: str(accepted.kind), ...accepted };
  let conflict: { reason: string; message: string } | undefined;
  const check = (field: string, reason: string, used: ReadonlySet<string>): void => {
    const message = clash(str(requested[field]), str(accepted[field]), used);
    if (message === undefined) next[field] = requested[field];
    else conflict = { reason, message };
  };
  check('plural', 'PluralConflict', resources);
  check('singular', 'SingularConflict', resources);
  const wanted = strings(requested.shortNames);
  const had = strings(accepted.shortNames);
  if (JSON.stringify(wanted) !== JSON.stringify(had)) {
    const errors = wanted.filter((s) => !had.includes(s)).flatMap((s) => clash(s, '', resources) ?? []);
    if (errors.length === 0) {
      if (wanted.length > 0) next.shortNames = wanted;
      else delete next.shortNames;
    } else conflict = { reason: 'ShortNamesConflict', message: errors.length === 1 ? errors[0] : `[${errors.join(', ')}]` };
  }
  check('kind', 'KindConflict', kinds);
  check('listKind', 'ListKindConflict', kinds);
  if (requested.categories !== undefined) next.categories = requested.categories;
  else delete next.categories;
  const namesAccepted: CrdCondition = conflict
    ? { type: 'NamesAccepted', status: 'False', ...conflict }
    : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  return { acceptedNames: next, namesAccepted };
}

/**
 * The Established condition after a naming decision (kube's naming and establishing controllers in
 * one step): kept when the CRD was established already, True once its names are accepted, else
 * False `NotAccepted`.
 *
 * @example
 * ```ts
 * establishedAfter(undefined, decision.namesAccepted); // { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', ... }
 * ```
 */
export function establishedAfter(current: CrdCondition | undefined, namesAccepted: CrdCondition): CrdCondition {
  if (current?.status === 'True') return current;
  return namesAccepted.status === 'True'
    ? { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }
    : { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
}
