import { Optional, type Environment } from '@marcbachmann/cel-js';
import type { FieldError } from '../status.js';
import { child, errorForReason, index, invalidValue, notSupported, required } from './fieldErrors.js';
import { costFactor, estimateRuleCost, maxSize, PER_CRD_COST_LIMIT, PER_RULE_COST_LIMIT } from './celCost.js';
import { CelTypeDeclarer, kubeCelEnvironment, toCelValue } from './celTypes.js';
import { jsonEqual } from './schemaValidation.js';
import { mapValueSchema, type StructuralSchema, type ValidationRule } from './structuralSchema.js';
import type { JsonObject } from '../resources.js';

// `x-kubernetes-validations`: CEL rules compiled (type-checked against the schema, cost-estimated)
// once when the CRD is stored, and run on every write of a custom resource, as
// apiextensions-apiserver's pkg/apiserver/schema/cel does.

type Program = ((ctx: object) => unknown) & { readonly ast: unknown };

/** One compiled rule of a schema node. */
export interface CompiledRule {
  readonly rule: ValidationRule;
  readonly program: Program;
  readonly messageProgram?: Program;
  /** The rule mentions `oldSelf`: it runs on updates only, when the old value exists. */
  readonly transition: boolean;
}

/**
 * The compiled CEL rules of a structural schema, by node.
 *
 * @example
 * ```ts
 * const { rules, errors } = compileCelRules(schema, 'spec.validation.openAPIV3Schema');
 * ```
 */
export interface CelRules {
  readonly byNode: WeakMap<StructuralSchema, ReadonlyArray<CompiledRule>>;
  readonly any: boolean;
}

const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

const mentions = (ast: unknown, name: string): boolean => {
  if (typeof ast !== 'object' || ast === null) return false;
  const n = ast as { op?: unknown; args?: unknown };
  if (n.op === 'id' && n.args === name) return true;
  return Array.isArray(n.args) ? n.args.some((a) => mentions(a, name)) : mentions(n.args, name);
};

/** cel-go's wording for what the evaluator reports (`No such key: x` -> `undefined field 'x'`). */
function compileMessage(e: unknown): string {
  const err = e as { message?: string; node?: { pos?: number } };
  const first = String(err?.message ?? e).split('\n')[0];
  const noKey = /^No such key: (.*)$/.exec(first);
  const text = noKey ? `undefined field '${noKey[1]}'` : first;
  return `ERROR: <input>:1:${(err?.node?.pos ?? 0) + 1}: ${text}`;
}

interface NodeEnvs {
  readonly plain: Environment;
  readonly optional: Environment;
}

function nodeEnvs(s: StructuralSchema, isResource: boolean): NodeEnvs {
  const base = kubeCelEnvironment();
  const t = new CelTypeDeclarer(base).typeOf(s, isResource);
  base.registerVariable('self', t);
  const plain = base.clone().registerVariable('oldSelf', t);
  const optional = base.clone().registerVariable('oldSelf', `optional<${t}>`);
  return { plain, optional };
}

function compileRule(env: Environment, r: ValidationRule, path: string, errors: FieldError[]): CompiledRule | undefined {
  if (!r.rule.trim()) {
    errors.push(required(`${path}.rule`, 'rule is not specified'));
    return undefined;
  }
  let program: Program;
  try {
    const checked = env.check(r.rule);
    if (!checked.valid) throw checked.error;
    if (checked.type !== 'bool' && checked.type !== 'dyn') throw new Error('cel expression must evaluate to a bool');
    program = env.parse(r.rule) as unknown as Program;
  } catch (e) {
    errors.push(invalidValue(`${path}.rule`, r.rule, `compilation failed: ${compileMessage(e)}`));
    return undefined;
  }
  let messageProgram: Program | undefined;
  if (r.messageExpression !== undefined) {
    try {
      const checked = env.check(r.messageExpression);
      if (!checked.valid) throw checked.error;
      if (checked.type !== 'string' && checked.type !== 'dyn') throw new Error('must evaluate to a string');
      messageProgram = env.parse(r.messageExpression) as unknown as Program;
    } catch (e) {
      errors.push(invalidValue(`${path}.messageExpression`, r.messageExpression, `messageExpression compilation failed: ${compileMessage(e)}`));
    }
  }
  if (r.reason !== undefined && !REASONS.includes(r.reason)) errors.push(notSupported(`${path}.reason`, r.reason, REASONS));
  const transition = mentions(program.ast, 'oldSelf');
  return { rule: r, program, transition, ...(messageProgram ? { messageProgram } : {}) };
}

interface Walk {
  readonly byNode: WeakMap<StructuralSchema, CompiledRule[]>;
  readonly errors: FieldError[];
  readonly costs: Array<{ path: string; total: number }>;
}

/**
 * `uncorrelatable`: the path of the nearest ancestor under which an old value cannot be paired
 * with the new one (a list that is not a map list, an atomic map), where kube refuses `oldSelf`.
 */
function compileNode(s: StructuralSchema, path: string, isResource: boolean, cardinality: number, w: Walk, uncorrelatable?: string): void {
  if (s.validations.length > 0) {
    let envs: NodeEnvs;
    try {
      envs = nodeEnvs(s, isResource);
    } catch (e) {
      // The evaluator could not type this node: say so on its rules rather than fail the request.
      s.validations.forEach((r, i) => w.errors.push(invalidValue(`${index(`${path}.x-kubernetes-validations`, i)}.rule`, r.rule, `compilation failed: ${compileMessage(e)}`)));
      return;
    }
    const compiled: CompiledRule[] = [];
    s.validations.forEach((r, i) => {
      const rulePath = index(`${path}.x-kubernetes-validations`, i);
      const c = compileRule(r.optionalOldSelf ? envs.optional : envs.plain, r, rulePath, w.errors);
      if (!c) return;
      if (c.transition && uncorrelatable !== undefined) {
        w.errors.push(invalidValue(`${rulePath}.rule`, r.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
      } else if (!c.transition && r.optionalOldSelf !== undefined) {
        w.errors.push(invalidValue(`${rulePath}.optionalOldSelf`, r.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
      }
      const cost = estimateRuleCost(c.program.ast, s);
      if (cost > PER_RULE_COST_LIMIT) {
        w.errors.push({ field: `${rulePath}.rule`, type: 'FieldValueForbidden', body: `Forbidden: estimated rule cost exceeds budget by factor of ${costFactor(cost, PER_RULE_COST_LIMIT)}` });
      }
      w.costs.push({ path: `${rulePath}.rule`, total: cost * cardinality });
      compiled.push(c);
    });
    w.byNode.set(s, compiled);
  }
  const inProperties = uncorrelatable ?? (s.mapType === 'atomic' ? path : undefined);
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    if (isResource && k === 'metadata') continue;
    compileNode(p, index(`${path}.properties`, k), p.embeddedResource, cardinality, w, inProperties);
  }
  if (s.items) compileNode(s.items, `${path}.items`, s.items.embeddedResource, cardinality * maxSize(s), w, uncorrelatable ?? (s.listType === 'map' ? undefined : path));
  const values = mapValueSchema(s);
  if (values) compileNode(values, `${path}.additionalProperties`, values.embeddedResource, cardinality * maxSize(s), w, uncorrelatable);
}

/**
 * Compiles every `x-kubernetes-validations` rule of `schema` (whose JSON path in the CRD is
 * `schemaPath`): type-checked against the schema, estimated for cost. `errors` are the 422
 * causes a real server gives for the CRD (a rule that does not compile, a reason it does not
 * know, a cost over budget).
 *
 * @example
 * ```ts
 * compileCelRules(toStructural(raw), 'spec.validation.openAPIV3Schema').errors;
 * ```
 */
export function compileCelRules(schema: StructuralSchema, schemaPath: string): { rules: CelRules; errors: FieldError[] } {
  const w: Walk = { byNode: new WeakMap(), errors: [], costs: [] };
  compileNode(schema, schemaPath, true, 1, w);
  const total = w.costs.reduce((s, c) => s + c.total, 0);
  if (total > PER_CRD_COST_LIMIT) {
    w.errors.push({
      field: schemaPath,
      type: 'FieldValueForbidden',
      body: `Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of ${costFactor(total, PER_CRD_COST_LIMIT)}`,
    });
  }
  return { rules: { byNode: w.byNode, any: w.costs.length > 0 }, errors: w.errors };
}

/** The message of a failed rule: messageExpression, else message, else `failed rule: <rule>`. */
function failureMessage(c: CompiledRule, ctx: object): string {
  const fallback = c.rule.message ?? `failed rule: ${c.rule.rule}`;
  if (!c.messageProgram) return fallback;
  try {
    const m = c.messageProgram(ctx);
    return typeof m === 'string' && m.trim() !== '' && !m.includes('\n') ? m : fallback;
  } catch {
    return fallback;
  }
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The cause's field: the node's path plus `fieldPath`; a rule on the root without one is `<nil>` (a nil field.Path). */
function fieldPathOf(path: string, fieldPath: string | undefined): string {
  if (!fieldPath) return path || '<nil>';
  const tail = fieldPath.startsWith('.') || fieldPath.startsWith('[') ? fieldPath : `.${fieldPath}`;
  return path ? path + tail : tail.replace(/^\./, '');
}

function runRules(rules: ReadonlyArray<CompiledRule>, v: unknown, old: unknown, s: StructuralSchema, path: string, isResource: boolean, errors: FieldError[]): void {
  const self = toCelValue(v, s, isResource);
  const oldSelf = old === undefined ? undefined : toCelValue(old, s, isResource);
  const unchanged = old !== undefined && jsonEqual(v, old);
  const scalar = typeof v !== 'object' || v === null;
  for (const c of rules) {
    if (c.transition && !c.rule.optionalOldSelf && old === undefined) continue;
    if (!c.transition && unchanged) continue; // ratcheting
    const ctx = { self, oldSelf: c.rule.optionalOldSelf ? (old === undefined ? Optional.none() : Optional.of(oldSelf)) : oldSelf };
    let ok: unknown;
    try {
      ok = c.program(ctx);
    } catch (e) {
      const text = String((e as Error)?.message ?? e).split('\n')[0];
      const cel = text.charAt(0).toLowerCase() + text.slice(1);
      errors.push(invalidValue(path || '<nil>', s.type || 'object', `${cel} evaluating rule: ${c.rule.message ?? c.rule.rule}`));
      continue;
    }
    if (ok === true) continue;
    errors.push(errorForReason(c.rule.reason, fieldPathOf(path, c.rule.fieldPath), v, failureMessage(c, ctx), !scalar));
  }
}

function walk(v: unknown, old: unknown, s: StructuralSchema, rules: CelRules, path: string, isResource: boolean, errors: FieldError[]): void {
  if (v === undefined || v === null) return;
  const own = rules.byNode.get(s);
  if (own) runRules(own, v, old, s, path, isResource, errors);
  if (Array.isArray(v)) {
    const items = s.items;
    if (!items) return;
    const keyOf = (x: unknown) => JSON.stringify(s.listMapKeys.map((k) => (isObject(x) ? (x[k] ?? null) : null)));
    const olds = s.listType === 'map' && Array.isArray(old) ? new Map(old.map((o) => [keyOf(o), o])) : undefined;
    v.forEach((x, i) => walk(x, olds?.get(keyOf(x)), items, rules, index(path, i), items.embeddedResource, errors));
    return;
  }
  if (!isObject(v)) return;
  const values = mapValueSchema(s);
  for (const [k, x] of Object.entries(v)) {
    if (isResource && (k === 'metadata' || k === 'apiVersion' || k === 'kind')) continue;
    const ps = s.properties?.[k] ?? values;
    if (ps) walk(x, isObject(old) ? old[k] : undefined, ps, rules, s.properties?.[k] ? child(path, k) : index(path, k), ps.embeddedResource, errors);
  }
}

/**
 * Runs the CEL rules on a custom resource: `old` is the stored object on update (transition rules
 * run only where an old value exists; unchanged values are not re-checked), undefined on create.
 *
 * @example
 * ```ts
 * evaluateCelRules(obj, undefined, schema, rules); // [] when every rule holds
 * ```
 */
export function evaluateCelRules(obj: JsonObject, old: JsonObject | undefined, schema: StructuralSchema, rules: CelRules): FieldError[] {
  const errors: FieldError[] = [];
  if (rules.any) walk(obj, old, schema, rules, '', true, errors);
  return errors;
}

/**
 * Runs the rules of node `s` and below on `value`, reported at `path`, as on a create: how a CRD
 * write checks a `default` value against the rules it will meet.
 *
 * @example
 * ```ts
 * evaluateCelRulesAt(5, replicasSchema, rules, 'spec.validation.openAPIV3Schema.properties[replicas].default');
 * ```
 */
export function evaluateCelRulesAt(value: unknown, s: StructuralSchema, rules: CelRules, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (rules.any) walk(value, undefined, s, rules, path, s.embeddedResource, errors);
  return errors;
}
