import type { TypeRules } from '../../typeRules.js';
import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import { checkAdmissionShape } from '../../../admission/admissionShapes.js';
import { compileAdmissionExpression, type AdmissionCelVariable, type CelResult } from '../../../admission/admissionCel.js';

// ValidatingAdmissionPolicy, MutatingAdmissionPolicy and their bindings as kube stores them
// (ADMISSION.md §5, §6; KK admissionregistration/v1 defaults.go and validation.go): defaults, and
// the creation checks, CEL compiled with every variable dynamic (a syntax error, an unknown
// function or a wrong result type is a 422; a misspelt field passes, as in kube).

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);
const show = (v: unknown): string => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v));

const required = (field: string, detail = ''): FieldError => ({ field, type: 'FieldValueRequired', body: detail ? `Required value: ${detail}` : 'Required value' });
const invalid = (field: string, value: unknown, detail: string): FieldError => ({ field, type: 'FieldValueInvalid', body: `Invalid value: ${show(value)}: ${detail}` });
const notSupported = (field: string, value: unknown, values: ReadonlyArray<string>): FieldError => ({
  field,
  type: 'FieldValueNotSupported',
  body: `Unsupported value: ${show(value)}: supported values: ${values.map((v) => JSON.stringify(v)).join(', ')}`,
});

const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const REASONS = ['Unauthorized', 'Forbidden', 'Invalid', 'RequestEntityTooLarge'];

function defaultMatchResources(m: unknown): void {
  if (!isObject(m)) return;
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  m.matchPolicy ??= 'Equivalent';
  for (const r of [...list(m.resourceRules), ...list(m.excludeResourceRules)]) r.scope ??= '*';
}

function compile(field: string, expression: unknown, variables: ReadonlyArray<AdmissionCelVariable>, want: CelResult, errors: FieldError[]): void {
  if (typeof expression !== 'string' || expression.trim() === '') return void errors.push(required(field));
  const c = compileAdmissionExpression(expression, variables, want);
  if (typeof c === 'string') errors.push(invalid(field, expression, c));
}

function variablesOf(spec: JsonObject): AdmissionCelVariable[] {
  return ['object', 'oldObject', 'request', 'namespaceObject', 'variables', 'authorizer', ...(isObject(spec.paramKind) ? (['params'] as const) : [])];
}

/** What policies of both kinds share: matchConstraints, paramKind, variables, matchConditions, failurePolicy. */
function commonSpecErrors(spec: JsonObject, errors: FieldError[]): void {
  const mc = spec.matchConstraints;
  if (!isObject(mc)) errors.push(required('spec.matchConstraints'));
  else if (list(mc.resourceRules).length === 0) errors.push(required('spec.matchConstraints.resourceRules'));
  if (spec.failurePolicy !== undefined && !FAILURE_POLICIES.includes(spec.failurePolicy as string)) errors.push(notSupported('spec.failurePolicy', spec.failurePolicy, FAILURE_POLICIES));
  if (spec.paramKind !== undefined) {
    const pk = isObject(spec.paramKind) ? spec.paramKind : {};
    if (!pk.apiVersion) errors.push(required('spec.paramKind.apiVersion'));
    if (!pk.kind) errors.push(required('spec.paramKind.kind'));
  }
  const vars = variablesOf(spec);
  list(spec.variables).forEach((v, i) => {
    if (typeof v.name !== 'string' || !CEL_IDENTIFIER.test(v.name)) errors.push(invalid(`spec.variables[${i}].name`, v.name ?? '', 'name is not a valid CEL identifier'));
    compile(`spec.variables[${i}].expression`, v.expression, vars, 'any', errors);
  });
  const conditions = list(spec.matchConditions);
  if (conditions.length > 64) errors.push({ field: 'spec.matchConditions', type: 'FieldValueTooMany', body: `Too many: ${conditions.length}: must have at most 64 items` });
  conditions.forEach((c, i) => {
    if (!c.name) errors.push(required(`spec.matchConditions[${i}].name`));
    compile(`spec.matchConditions[${i}].expression`, c.expression, vars.filter((v) => v !== 'variables' && v !== 'namespaceObject'), 'bool', errors);
  });
}

function validatingPolicyErrors(obj: JsonObject): FieldError[] {
  const spec = isObject(obj.spec) ? obj.spec : {};
  const errors: FieldError[] = [];
  commonSpecErrors(spec, errors);
  const vars = variablesOf(spec);
  const validations = list(spec.validations);
  const audits = list(spec.auditAnnotations);
  if (validations.length === 0 && audits.length === 0) errors.push(required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
  validations.forEach((v, i) => {
    const at = `spec.validations[${i}]`;
    compile(`${at}.expression`, v.expression, vars, 'bool', errors);
    if (typeof v.message === 'string' && /[\r\n]/.test(v.message)) errors.push(invalid(`${at}.message`, v.message, 'message must not contain line breaks'));
    if (v.messageExpression !== undefined) compile(`${at}.messageExpression`, v.messageExpression, vars.filter((x) => x !== 'authorizer'), 'string', errors);
    if (v.reason !== undefined && !REASONS.includes(v.reason as string)) errors.push(notSupported(`${at}.reason`, v.reason, REASONS));
  });
  if (audits.length > 20) errors.push({ field: 'spec.auditAnnotations', type: 'FieldValueTooMany', body: `Too many: ${audits.length}: must have at most 20 items` });
  audits.forEach((a, i) => {
    if (!a.key) errors.push(required(`spec.auditAnnotations[${i}].key`));
    compile(`spec.auditAnnotations[${i}].valueExpression`, a.valueExpression, vars, 'any', errors);
  });
  return errors;
}

function mutatingPolicyErrors(obj: JsonObject): FieldError[] {
  const spec = isObject(obj.spec) ? obj.spec : {};
  const errors: FieldError[] = [];
  commonSpecErrors(spec, errors);
  const vars = variablesOf(spec);
  if (spec.reinvocationPolicy === undefined) errors.push(required('spec.reinvocationPolicy'));
  else if (!['Never', 'IfNeeded'].includes(spec.reinvocationPolicy as string)) errors.push(notSupported('spec.reinvocationPolicy', spec.reinvocationPolicy, ['IfNeeded', 'Never']));
  const mutations = list(spec.mutations);
  if (mutations.length === 0) errors.push(required('spec.mutations'));
  mutations.forEach((m, i) => {
    const at = `spec.mutations[${i}]`;
    if (m.patchType === 'ApplyConfiguration') compile(`${at}.applyConfiguration.expression`, isObject(m.applyConfiguration) ? m.applyConfiguration.expression : undefined, vars, 'any', errors);
    else if (m.patchType === 'JSONPatch') compile(`${at}.jsonPatch.expression`, isObject(m.jsonPatch) ? m.jsonPatch.expression : undefined, vars, 'any', errors);
    else if (m.patchType === undefined) errors.push(required(`${at}.patchType`));
    else errors.push(notSupported(`${at}.patchType`, m.patchType, ['ApplyConfiguration', 'JSONPatch']));
  });
  return errors;
}

function paramRefErrors(spec: JsonObject, errors: FieldError[]): void {
  if (spec.paramRef === undefined) return;
  const ref = isObject(spec.paramRef) ? spec.paramRef : {};
  if (ref.name !== undefined && ref.selector !== undefined) errors.push(invalid('spec.paramRef.name', ref.name, 'name and selector are mutually exclusive'));
  if (ref.name === undefined && ref.selector === undefined) errors.push(required('spec.paramRef', 'one of name or selector must be specified'));
  if (ref.parameterNotFoundAction === undefined) errors.push(required('spec.paramRef.parameterNotFoundAction'));
  else if (!['Allow', 'Deny'].includes(ref.parameterNotFoundAction as string)) errors.push(notSupported('spec.paramRef.parameterNotFoundAction', ref.parameterNotFoundAction, ['Allow', 'Deny']));
}

function bindingErrors(obj: JsonObject, validating: boolean): FieldError[] {
  const spec = isObject(obj.spec) ? obj.spec : {};
  const errors: FieldError[] = [];
  if (typeof spec.policyName !== 'string' || spec.policyName === '') errors.push(required('spec.policyName'));
  paramRefErrors(spec, errors);
  if (!validating) return errors;
  const actions = Array.isArray(spec.validationActions) ? (spec.validationActions as unknown[]) : [];
  if (actions.length === 0) errors.push(required('spec.validationActions'));
  actions.forEach((a, i) => {
    if (!['Deny', 'Warn', 'Audit'].includes(a as string)) errors.push(notSupported(`spec.validationActions[${i}]`, a, ['Audit', 'Deny', 'Warn']));
    else if (actions.indexOf(a) !== i) errors.push({ field: `spec.validationActions[${i}]`, type: 'FieldValueDuplicate', body: `Duplicate value: ${show(a)}` });
  });
  if (actions.includes('Deny') && actions.includes('Warn')) {
    errors.push(invalid('spec.validationActions', actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  return errors;
}

const policyDefaults = (kind: string) => (obj: JsonObject): void => {
  checkAdmissionShape(kind, obj);
  if (!isObject(obj.spec)) return;
  obj.spec.failurePolicy ??= 'Fail';
  defaultMatchResources(obj.spec.matchConstraints);
};
const bindingDefaults = (kind: string) => (obj: JsonObject): void => {
  checkAdmissionShape(kind, obj);
  if (isObject(obj.spec)) defaultMatchResources(obj.spec.matchResources);
};

const rules = (defaults: (o: JsonObject) => void, check: (o: JsonObject) => FieldError[]): TypeRules => ({ defaults, validateCreate: check, validateUpdate: check });

/**
 * The rules of the admission policy types and their bindings, by type id.
 *
 * @example
 * ```ts
 * const all = new Map([...builtInTypeRules, ...admissionPolicyRules]);
 * ```
 */
export const admissionPolicyRules: ReadonlyMap<string, TypeRules> = new Map([
  ['validatingadmissionpolicies.admissionregistration.k8s.io', rules(policyDefaults('ValidatingAdmissionPolicy'), validatingPolicyErrors)],
  ['validatingadmissionpolicybindings.admissionregistration.k8s.io', rules(bindingDefaults('ValidatingAdmissionPolicyBinding'), (o) => bindingErrors(o, true))],
  ['mutatingadmissionpolicies.admissionregistration.k8s.io', rules(policyDefaults('MutatingAdmissionPolicy'), mutatingPolicyErrors)],
  ['mutatingadmissionpolicybindings.admissionregistration.k8s.io', rules(bindingDefaults('MutatingAdmissionPolicyBinding'), (o) => bindingErrors(o, false))],
]);
