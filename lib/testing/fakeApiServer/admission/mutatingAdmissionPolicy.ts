import { merge } from '../fields/fieldWalk.js';
import type { MergeSchema } from '../fields/listTypes.js';
import type { JsonObject } from '../resources.js';
import { failure, StatusError } from '../status.js';
import { jsonValue } from './admissionCel.js';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionPluginContext } from './attributes.js';
import { boundPolicies, type BoundPolicy, type PolicySource } from './policyBindings.js';
import { evaluate, policyActivation, policyConditions } from './policyEvaluation.js';

// kube's MutatingAdmissionPolicy plugin (AS admission/plugin/policy/mutating; ADMISSION.md §6):
// each matching binding's mutations in order, ApplyConfiguration merged as server-side apply
// merges (the fake server's merge, with the type's list and map kinds), JSONPatch applied, the
// object defaulted after each; bindings of `reinvocationPolicy: IfNeeded` policies run once more
// when the object changed after them. Errors under failurePolicy Fail are kube's 403 Invalid.

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What the plugin reads: the policy source, and the merge schema of a resource (for ApplyConfiguration).
 *
 * @example
 * ```ts
 * const source: MutatingPolicySource = registration.policySource();
 * ```
 */
export interface MutatingPolicySource extends PolicySource {
  mergeSchema(group: string, version: string, resource: string): MergeSchema | undefined;
  /** RFC 6902 JSON Patch as the server applies it. */
  jsonPatch(doc: unknown, ops: unknown): unknown;
}

const policyError = (bound: BoundPolicy, errors: ReadonlyArray<string>): StatusError => {
  const texts = errors.map((e) => `policy '${bound.policyName}' with binding '${bound.bindingName}' denied request: ${e}`);
  return new StatusError(failure(403, 'Invalid', texts.join(', '), { causes: texts.map((message) => ({ message })) }));
};

/** Applies one mutation's result to the object: the patched object, or kube's error text. */
function mutate(a: AdmissionAttributes, m: JsonObject, activation: object, source: MutatingPolicySource): JsonObject | string {
  const obj = a.object!;
  if (m.patchType === 'ApplyConfiguration') {
    const expression = isObject(m.applyConfiguration) ? String(m.applyConfiguration.expression ?? '') : '';
    const r = evaluate(expression, activation, 'any');
    if (!r.ok) return r.error;
    const config = jsonValue(r.value);
    if (!isObject(config)) return `unsupported return type from ApplyConfiguration expression: ${Array.isArray(config) ? 'list' : typeof config}`;
    return merge(obj, config, source.mergeSchema(a.resource.group, a.resource.version, a.resource.resource)) as JsonObject;
  }
  const expression = isObject(m.jsonPatch) ? String(m.jsonPatch.expression ?? '') : '';
  const r = evaluate(expression, activation, 'any');
  if (!r.ok) return r.error;
  const ops = jsonValue(r.value);
  if (!Array.isArray(ops)) return 'type mismatch: JSONPatchType.expression should evaluate to array';
  try {
    return source.jsonPatch(obj, ops) as JsonObject;
  } catch (e) {
    return `JSON Patch: ${e instanceof StatusError ? (e.status.message ?? '') : String(e)}`;
  }
}

/** Runs one binding's mutations (each param); true when the object changed. */
function runBinding(a: AdmissionAttributes, bound: BoundPolicy, source: MutatingPolicySource, ctx: AdmissionPluginContext | undefined): boolean {
  const spec = isObject(bound.policy.spec) ? bound.policy.spec : {};
  const failClosed = spec.failurePolicy !== 'Ignore';
  if (bound.configError) {
    if (failClosed) throw policyError(bound, [bound.configError]);
    return false;
  }
  const before = JSON.stringify(a.object);
  for (const param of bound.params) {
    const matched = policyConditions(bound, policyActivation(a, bound, param, source));
    if (matched === false) continue;
    if (matched !== true) {
      if (failClosed) throw policyError(bound, matched);
      continue;
    }
    for (const m of (Array.isArray(spec.mutations) ? spec.mutations : []) as JsonObject[]) {
      // Each mutation sees the object as the previous one left it.
      const result = mutate(a, m, policyActivation(a, bound, param, source), source);
      if (typeof result === 'string') {
        if (failClosed) throw policyError(bound, [result]);
        continue;
      }
      ctx?.redefault?.(result);
      a.object = result;
    }
  }
  return JSON.stringify(a.object) !== before;
}

/**
 * kube's MutatingAdmissionPolicy plugin over the policies and bindings stored in the server.
 *
 * @example
 * ```ts
 * chain.register(mutatingAdmissionPolicies(registration.policySource()), 'policy');
 * ```
 */
export function mutatingAdmissionPolicies(source: MutatingPolicySource): AdmissionPlugin {
  // Per request: the bindings that may run again, and whether the object changed after each.
  const rounds = new WeakMap<AdmissionAttributes, { reinvocable: Map<string, boolean>; output: string; second: boolean }>();
  return {
    name: 'MutatingAdmissionPolicy',
    operations: ['CREATE', 'UPDATE', 'CONNECT'],
    reinvocationPolicy: 'IfNeeded',
    wantsReinvocation: (a) => [...(rounds.get(a)?.reinvocable.values() ?? [])].some((changed) => changed),
    admit: (a, ctx) => {
      if (!a.object) return undefined;
      let round = rounds.get(a);
      if (!round) rounds.set(a, (round = { reinvocable: new Map(), output: '', second: false }));
      else {
        round.second = true;
        if (JSON.stringify(a.object) !== round.output) for (const k of round.reinvocable.keys()) round.reinvocable.set(k, true);
      }
      for (const bound of boundPolicies('mutating', a, source)) {
        const id = `${bound.policyName}/${bound.bindingName}`;
        if (round.second && round.reinvocable.get(id) !== true) continue;
        const changed = runBinding(a, bound, source, ctx);
        if (changed) for (const k of round.reinvocable.keys()) round.reinvocable.set(k, true);
        const spec = isObject(bound.policy.spec) ? bound.policy.spec : {};
        if (!round.second && spec.reinvocationPolicy === 'IfNeeded') round.reinvocable.set(id, false);
      }
      if (round.second) round.reinvocable.clear();
      round.output = JSON.stringify(a.object);
      return undefined;
    },
  };
}
