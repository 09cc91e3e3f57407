import type { JsonObject } from '../resources.js';
import { admissionActivation, evaluationError, type AdmissionCelVariable } from './admissionCel.js';
import type { AdmissionAttributes } from './attributes.js';
import { compiledCondition, evaluateConditions, type MatchConditionSpec } from './matchConditions.js';
import type { BoundPolicy, PolicySource } from './policyBindings.js';

// One evaluation of an admission policy (AS plugin/cel/compile.go, policy/*/validator.go): the
// activation (object, oldObject, request, params, namespaceObject, variables computed on first
// use), the matchConditions, and single expressions, errors worded as kube's cel activation.

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The variables every policy expression may use (`params` with a paramKind). */
export const POLICY_VARIABLES: ReadonlyArray<AdmissionCelVariable> = ['object', 'oldObject', 'request', 'params', 'namespaceObject', 'variables', 'authorizer'];

/**
 * An expression's outcome: its value, or kube's error text.
 *
 * @example
 * ```ts
 * const r: Evaluated = { ok: true, value: true };
 * ```
 */
export type Evaluated = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/**
 * The namespace a policy sees as `namespaceObject`: the request's namespace object, null for
 * cluster-scoped objects and for Namespaces themselves.
 *
 * @example
 * ```ts
 * namespaceObjectOf(attributes, source); // { metadata: { name: 'default', ... }, ... } or null
 * ```
 */
export function namespaceObjectOf(a: AdmissionAttributes, source: Pick<PolicySource, 'namespaceOf'>): JsonObject | null {
  if (a.namespace === '' || (a.resource.group === '' && a.resource.resource === 'namespaces')) return null;
  return source.namespaceOf(a.namespace) ?? null;
}

/**
 * The activation of one (policy, binding, param) evaluation: `variables.<name>` evaluated on first
 * use, in order (a variable whose expression fails fails the expressions that use it).
 *
 * @example
 * ```ts
 * const activation = policyActivation(attributes, bound, param, source);
 * ```
 */
export function policyActivation(a: AdmissionAttributes, bound: BoundPolicy, param: unknown, source: Pick<PolicySource, 'namespaceOf'>): { [name: string]: unknown } {
  const activation = admissionActivation(a, { params: param, namespaceObject: namespaceObjectOf(a, source) });
  const variables: { [name: string]: unknown } = {};
  const spec = isObject(bound.policy.spec) ? bound.policy.spec : {};
  for (const v of Array.isArray(spec.variables) ? (spec.variables as JsonObject[]) : []) {
    const name = String(v.name ?? '');
    let cached: Evaluated | undefined;
    Object.defineProperty(variables, name, {
      enumerable: true,
      get: () => {
        cached ??= evaluate(String(v.expression ?? ''), activation, 'any');
        if (!cached.ok) throw new Error(cached.error);
        return cached.value;
      },
    });
  }
  activation.variables = variables;
  return activation;
}

/**
 * Evaluates one policy expression.
 *
 * @example
 * ```ts
 * evaluate('object.spec.replicas <= 5', activation, 'bool'); // { ok: true, value: true }
 * ```
 */
export function evaluate(expression: string, activation: object, want: 'bool' | 'string' | 'any'): Evaluated {
  const program = compiledCondition(expression, POLICY_VARIABLES, want);
  try {
    if (typeof program === 'string') throw new Error(program);
    return { ok: true, value: program.evaluate(activation) };
  } catch (e) {
    return { ok: false, error: evaluationError(expression, e) };
  }
}

/**
 * A policy's matchConditions on this evaluation: true, false, or the errors.
 *
 * @example
 * ```ts
 * policyConditions(bound, activation); // true
 * ```
 */
export function policyConditions(bound: BoundPolicy, activation: object): boolean | string[] {
  const spec = isObject(bound.policy.spec) ? bound.policy.spec : {};
  const conditions = (Array.isArray(spec.matchConditions) ? spec.matchConditions : []) as MatchConditionSpec[];
  return conditions.length === 0 ? true : evaluateConditions(conditions, activation, POLICY_VARIABLES);
}
