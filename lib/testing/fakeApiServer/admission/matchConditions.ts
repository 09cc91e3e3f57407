import { failure, StatusError } from '../status.js';
import { admissionActivation, compileAdmissionExpression, evaluationError, type AdmissionCelVariable, type CompiledExpression } from './admissionCel.js';
import { qualifiedResourceOf } from './admissionMatching.js';
import type { AdmissionAttributes } from './attributes.js';

// matchConditions of webhooks and policies (AS plugin/webhook/matchconditions/matcher.go;
// ADMISSION.md §3.1): any false skips, all true calls, an error with none false fails the
// request under failurePolicy Fail (403 `<resource> "<name>" is forbidden: <errors>`) and skips
// under Ignore.

/**
 * One matchCondition as stored.
 *
 * @example
 * ```ts
 * const c: MatchConditionSpec = { name: 'not-kube-system', expression: 'request.namespace != "kube-system"' };
 * ```
 */
export interface MatchConditionSpec {
  readonly name?: string;
  readonly expression?: string;
}

const compiled = new Map<string, CompiledExpression | string>();

/**
 * A condition's compiled expression, cached by its text and variables (stored configurations were
 * checked at creation; a stale one that no longer compiles is an evaluation error).
 *
 * @example
 * ```ts
 * const c = compiledCondition('object.spec.replicas > 1', ['object', 'oldObject', 'request']);
 * ```
 */
export function compiledCondition(expression: string, variables: ReadonlyArray<AdmissionCelVariable>, want: 'bool' | 'string' | 'any' = 'bool'): CompiledExpression | string {
  const key = `${want}|${variables.join(',')}|${expression}`;
  let c = compiled.get(key);
  if (c === undefined) {
    c = compileAdmissionExpression(expression, variables, want);
    if (compiled.size > 10_000) compiled.clear(); // bounded: a long test run writing many policies
    compiled.set(key, c);
  }
  return c;
}

/**
 * The outcome of matchConditions: `true` (all true, or none), `false` (one is false), or the
 * errors of those that failed when none was false.
 *
 * @example
 * ```ts
 * evaluateConditions([{ name: 'a', expression: 'true' }], activation, ['object']); // true
 * ```
 */
export function evaluateConditions(conditions: ReadonlyArray<MatchConditionSpec>, activation: object, variables: ReadonlyArray<AdmissionCelVariable>): boolean | string[] {
  const errors: string[] = [];
  for (const c of conditions) {
    const expression = c.expression ?? '';
    const program = compiledCondition(expression, variables);
    let result: unknown;
    try {
      if (typeof program === 'string') throw new Error(program);
      result = program.evaluate(activation);
    } catch (e) {
      errors.push(evaluationError(expression, e));
      continue;
    }
    if (result === false) return false;
    if (result !== true) errors.push(`expression '${expression}' resulted in error: no such overload`);
  }
  return errors.length === 0 ? true : errors;
}

/**
 * Whether the write matches every condition (`true` when there is none). Throws kube's 403 when
 * one errs, none is false, and `failurePolicy` is `Fail`. Webhooks' conditions see `object`,
 * `oldObject` and `request`.
 *
 * @example
 * ```ts
 * matchesConditions(hook.matchConditions ?? [], attributes, hook.failurePolicy ?? 'Fail');
 * ```
 */
export function matchesConditions(conditions: ReadonlyArray<MatchConditionSpec>, a: AdmissionAttributes, failurePolicy: string): boolean {
  if (conditions.length === 0) return true;
  const outcome = evaluateConditions(conditions, admissionActivation(a), ['object', 'oldObject', 'request', 'authorizer']);
  if (typeof outcome === 'boolean') return outcome;
  if (failurePolicy === 'Ignore') return false;
  const text = outcome.length === 1 ? outcome[0] : `[${outcome.join(', ')}]`;
  throw new StatusError(
    failure(403, 'Forbidden', `${qualifiedResourceOf(a)} "${a.name}" is forbidden: ${text}`, {
      name: a.name,
      ...(a.resource.group ? { group: a.resource.group } : {}),
      kind: a.resource.resource,
    }),
  );
}
