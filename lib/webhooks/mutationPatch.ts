import type { Draft } from 'immer';
import { causeMessage } from '../errors.js';
import { recipePatch, type JsonPatchOperation } from '../write/jsonPatch.js';
import { plainCopy } from '../write/plainCopy.js';
import { applyJsonPatch, jsonEqual } from './applyJsonPatch.js';
import type { PatchedDecision, ReplacedDecision } from './admissionDecision.js';

/**
 * Internal: the outcome of turning a mutation into the JSON Patch kube applies: the operations
 * (empty when nothing changed), or why there are none (the recipe threw or was async, the new
 * object is not a JSON object, the patch does not lead to the intended object).
 */
export type MutationPatch =
  | { readonly type: 'operations'; readonly operations: ReadonlyArray<JsonPatchOperation> }
  | { readonly type: 'failed'; readonly reason: string };

type Json = { [key: string]: unknown };
const isPlainObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/**
 * Moves a draft to `target` field by field, so that immer records the smallest changes it can:
 * nested objects are walked, arrays of the same length element by element, anything else replaced.
 */
function morph(draft: Json | unknown[], target: Json | unknown[]): void {
  if (Array.isArray(draft) && Array.isArray(target)) {
    target.forEach((t, i) => morphMember(draft as unknown as Json, String(i), t, draft[i]));
    return;
  }
  const d = draft as Json;
  const t = target as Json;
  for (const key of Object.keys(d)) if (!Object.prototype.hasOwnProperty.call(t, key)) delete d[key];
  for (const [key, value] of Object.entries(t)) morphMember(d, key, value, d[key]);
}

function morphMember(parent: Json, key: string, value: unknown, current: unknown): void {
  const bothObjects = isPlainObject(value) && isPlainObject(current);
  const sameArrays = Array.isArray(value) && Array.isArray(current) && value.length === current.length;
  if (bothObjects || sameArrays) morph(current as Json, value as Json);
  else if (!jsonEqual(current, value)) parent[key] = value;
}

/**
 * The JSON Patch from `object` to what `recipe` makes of it, checked: applied to a copy of
 * `object`, it must give the recipe's result.
 *
 * @example
 * ```ts
 * mutationPatch(cm, { type: 'patched', recipe: (d) => { d.data = { a: '1' }; } }); // { type: 'operations', operations: [{ op: 'add', path: '/data', value: { a: '1' } }] }
 * ```
 */
export function mutationPatch<T>(object: T, change: PatchedDecision<T> | ReplacedDecision<T>): MutationPatch {
  let recipe: (draft: Draft<T>) => void;
  if (change.type === 'patched') recipe = (draft) => change.recipe(draft);
  else {
    const target = plainCopy(change.object);
    if (!isPlainObject(target)) return { type: 'failed', reason: `the replacement object is not a JSON object (got ${target === null ? 'null' : Array.isArray(target) ? 'an array' : typeof target})` };
    recipe = (draft) => morph(draft as Json, target);
  }
  let patch: { operations: JsonPatchOperation[]; result: T; base: T };
  try {
    patch = recipePatch(object, recipe);
  } catch (e) {
    return { type: 'failed', reason: `the patch could not be computed: ${causeMessage(e)}` };
  }
  const { operations, result, base } = patch;
  if (operations.length === 0) return { type: 'operations', operations };
  // Applied to the object as it was (copy on write), the patch must give the recipe's result; both
  // share what did not change with `base`, so the comparison costs only what changed.
  try {
    if (!jsonEqual(applyJsonPatch(base, operations), result)) return { type: 'failed', reason: 'the computed patch does not lead to the mutated object' };
  } catch (e) {
    return { type: 'failed', reason: `the computed patch does not apply to the object: ${causeMessage(e)}` };
  }
  return { type: 'operations', operations };
}
