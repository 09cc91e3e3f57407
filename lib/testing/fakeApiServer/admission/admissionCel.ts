import type { Environment } from '@marcbachmann/cel-js';
import type { JsonObject } from '../resources.js';
import { kubeCelEnvironment, toCelValue } from '../schema/celTypes.js';
import type { AdmissionAttributes } from './attributes.js';
import { typedLiteralsAsMaps } from './celObjectLiterals.js';

// CEL as admission uses it (webhook matchConditions, ValidatingAdmissionPolicy,
// MutatingAdmissionPolicy; ADMISSION.md §3.1, §5): the CRD rules' engine with the admission
// variables, every one dynamic, as kube compiles a policy at creation (a misspelt field passes,
// a syntax error or a wrong result type is refused).

/**
 * A variable an admission expression may use.
 *
 * @example
 * ```ts
 * const vars: AdmissionCelVariable[] = ['object', 'oldObject', 'request'];
 * ```
 */
export type AdmissionCelVariable = 'object' | 'oldObject' | 'request' | 'params' | 'namespaceObject' | 'variables' | 'authorizer';

/**
 * What an expression must give: `bool` (conditions, validations), `string` (messages), anything.
 *
 * @example
 * ```ts
 * const want: CelResult = 'bool';
 * ```
 */
export type CelResult = 'bool' | 'string' | 'any';

/**
 * A compiled admission expression: call it with an activation (see {@link admissionActivation}).
 *
 * @example
 * ```ts
 * const c = compileAdmissionExpression('object.spec.replicas <= 5', ['object'], 'bool');
 * if (typeof c !== 'string') c.evaluate({ object: { spec: { replicas: 3n } } }); // true
 * ```
 */
export interface CompiledExpression {
  readonly expression: string;
  evaluate(activation: object): unknown;
}

const environments = new Map<string, Environment>();

// kube's `jsonpatch.escapeKey` is a namespaced function, which the evaluator cannot declare: the
// expression is compiled with the call renamed (messages keep the text as written).
const ESCAPE_KEY = 'jsonpatch__escapeKey';
const renamed = (expression: string): string => typedLiteralsAsMaps(expression).replace(/\bjsonpatch\s*\.\s*escapeKey\s*\(/g, `${ESCAPE_KEY}(`);

function environment(variables: ReadonlyArray<AdmissionCelVariable>): Environment {
  const key = [...variables].sort().join(',');
  let env = environments.get(key);
  if (!env) {
    env = kubeCelEnvironment();
    for (const v of variables) env.registerVariable(v, 'dyn');
    env.registerFunction(`${ESCAPE_KEY}(string): string`, (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1'));
    environments.set(key, env);
  }
  return env;
}

const firstLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0];

/**
 * Compiles `expression` with `variables` declared: the compiled expression, or kube's reason for
 * refusing it at creation (`compilation failed: ...`, `must evaluate to bool but got string`).
 * `authorizer` is not modelled: an expression naming it is parsed, and fails when evaluated.
 *
 * @example
 * ```ts
 * compileAdmissionExpression('object.spec.replicas <=', ['object'], 'bool'); // 'compilation failed: ...'
 * ```
 */
export function compileAdmissionExpression(expression: string, variables: ReadonlyArray<AdmissionCelVariable>, want: CelResult): CompiledExpression | string {
  const env = environment(variables);
  try {
    const source = renamed(expression);
    const checked = env.check(source);
    if (!checked.valid) return `compilation failed: ${firstLine(checked.error)}`;
    const type = checked.type ?? 'dyn';
    if (want !== 'any' && type !== want && type !== 'dyn') return `must evaluate to ${want} but got ${type}`;
    const program = env.parse(source);
    return { expression, evaluate: (activation) => program(activation) as unknown };
  } catch (e) {
    return `compilation failed: ${firstLine(e)}`;
  }
}

/**
 * A JSON value as CEL sees it (integers as BigInt), or null.
 *
 * @example
 * ```ts
 * celValue({ replicas: 3 }); // { replicas: 3n }
 * ```
 */
export const celValue = (v: unknown): unknown => (v === undefined ? null : toCelValue(v, undefined, false));

/**
 * A CEL result as JSON (BigInt back to numbers, maps to objects).
 *
 * @example
 * ```ts
 * jsonValue({ replicas: 3n }); // { replicas: 3 }
 * ```
 */
export function jsonValue(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(jsonValue);
  if (v instanceof Map) return Object.fromEntries([...v.entries()].map(([k, x]) => [String(k), jsonValue(x)]));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonValue(x)]));
  return v;
}

/**
 * The `request` variable: the AdmissionReview request's fields but `uid` (ADMISSION.md §5).
 *
 * @example
 * ```ts
 * const r = requestValue(attributes); // { operation: 'CREATE', name: 'a', ... }
 * ```
 */
export function requestValue(a: AdmissionAttributes): JsonObject {
  return {
    kind: { ...a.kind },
    resource: { ...a.resource },
    subResource: a.subResource,
    requestKind: { ...a.requestKind },
    requestResource: { ...a.requestResource },
    requestSubResource: a.requestSubResource,
    name: a.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo: { username: a.userInfo.username, uid: a.userInfo.uid ?? '', groups: [...a.userInfo.groups], extra: a.userInfo.extra ?? {} },
    dryRun: a.dryRun,
    options: a.options,
  };
}

/**
 * The activation of an admission expression: `object`, `oldObject`, `request`, and what else is
 * given (`params`, `namespaceObject`, `variables`).
 *
 * @example
 * ```ts
 * const activation = admissionActivation(attributes, { params: null });
 * ```
 */
export function admissionActivation(a: AdmissionAttributes, extra: { readonly params?: unknown; readonly namespaceObject?: unknown } = {}): { [name: string]: unknown } {
  const out: { [name: string]: unknown } = {
    object: celValue(a.object),
    oldObject: celValue(a.oldObject),
    request: celValue(requestValue(a)),
  };
  if ('params' in extra) out.params = celValue(extra.params);
  if ('namespaceObject' in extra) out.namespaceObject = celValue(extra.namespaceObject);
  return out;
}

/**
 * kube's text for an expression that failed when evaluated (its cel/activation wording).
 *
 * @example
 * ```ts
 * evaluationError('object.x', new Error('No such key: x')); // "expression 'object.x' resulted in error: no such key: x"
 * ```
 */
export function evaluationError(expression: string, e: unknown): string {
  const text = firstLine(e);
  return `expression '${expression}' resulted in error: ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
}
