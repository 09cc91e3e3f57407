import type { JsonObject } from '../resources.js';
import { qualifiedResourceOf } from './admissionMatching.js';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionResponse } from './attributes.js';
import { boundPolicies, type BoundPolicy, type PolicySource } from './policyBindings.js';
import { evaluate, policyActivation, policyConditions } from './policyEvaluation.js';

// kube's ValidatingAdmissionPolicy plugin (AS admission/plugin/policy/validating; ADMISSION.md
// §5): each binding that matches, with each of its params, runs the policy's validations; a
// failure goes where the binding's validationActions say (Deny: the request fails with the
// first denial's reason and kube's text; Warn: a Warning header; Audit: no audit log here).

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const CODES: { readonly [reason: string]: number } = { Unauthorized: 401, Forbidden: 403, Invalid: 422, RequestEntityTooLarge: 413 };
const MAX_MESSAGE = 5 * 1024;

/** One failed check of a binding: what it says, and its reason. */
interface Failed {
  readonly bound: BoundPolicy;
  readonly message: string;
  readonly reason: string;
  /** A configuration error of the policy (no binding in kube's text). */
  readonly policyOnly?: boolean;
}

/** The message of a false validation: messageExpression (when it gives one line), message, or the expression. */
function messageOf(v: JsonObject, activation: object): string {
  if (typeof v.messageExpression === 'string') {
    const m = evaluate(v.messageExpression, activation, 'string');
    if (m.ok && typeof m.value === 'string') {
      const text = m.value.trim();
      if (text !== '' && !text.includes('\n') && text.length <= MAX_MESSAGE) return text;
    }
  }
  if (typeof v.message === 'string' && v.message !== '') return v.message;
  return `failed expression: ${String(v.expression ?? '')}`;
}

/** The failures of one binding: validations false, or errors under failurePolicy Fail. */
function failuresOf(a: AdmissionAttributes, bound: BoundPolicy, source: PolicySource): Failed[] {
  const spec = isObject(bound.policy.spec) ? bound.policy.spec : {};
  const failClosed = spec.failurePolicy !== 'Ignore';
  if (bound.configError) return failClosed ? [{ bound, message: bound.configError, reason: 'Invalid', policyOnly: bound.configError.startsWith('failed to configure policy') }] : [];
  const out: Failed[] = [];
  for (const param of bound.params) {
    const activation = policyActivation(a, bound, param, source);
    const matched = policyConditions(bound, activation);
    if (matched === false) continue;
    if (matched !== true) {
      if (failClosed) out.push(...matched.map((message) => ({ bound, message, reason: 'Invalid' })));
      continue;
    }
    for (const v of (Array.isArray(spec.validations) ? spec.validations : []) as JsonObject[]) {
      const r = evaluate(String(v.expression ?? ''), activation, 'bool');
      if (!r.ok) {
        if (failClosed) out.push({ bound, message: r.error, reason: 'Invalid' });
      } else if (r.value !== true) {
        out.push({ bound, message: messageOf(v, activation), reason: typeof v.reason === 'string' ? v.reason : 'Invalid' });
      }
    }
  }
  return out;
}

const actionsOf = (bound: BoundPolicy): ReadonlyArray<string> => {
  const spec = isObject(bound.binding.spec) ? bound.binding.spec : {};
  return Array.isArray(spec.validationActions) ? (spec.validationActions as string[]) : [];
};

/**
 * kube's ValidatingAdmissionPolicy plugin over the policies and bindings stored in the server.
 *
 * @example
 * ```ts
 * chain.register(validatingAdmissionPolicies(registration.policySource()), 'policy');
 * ```
 */
export function validatingAdmissionPolicies(source: PolicySource): AdmissionPlugin {
  return {
    name: 'ValidatingAdmissionPolicy',
    validate: (a): AdmissionResponse | undefined => {
      const warnings: string[] = [];
      let denial: Failed | undefined;
      for (const bound of boundPolicies('validating', a, source)) {
        for (const f of failuresOf(a, bound, source)) {
          const actions = actionsOf(bound);
          if (actions.includes('Warn')) warnings.push(`Validation failed for ValidatingAdmissionPolicy '${bound.policyName}' with binding '${bound.bindingName}': ${f.message}`);
          if (actions.includes('Deny')) denial ??= f;
        }
      }
      if (!denial) return warnings.length > 0 ? { allowed: true, warnings } : undefined;
      const who = denial.policyOnly ? `ValidatingAdmissionPolicy '${denial.bound.policyName}'` : `ValidatingAdmissionPolicy '${denial.bound.policyName}' with binding '${denial.bound.bindingName}'`;
      const cause = `${who} denied request: ${denial.message}`;
      return {
        allowed: false,
        status: {
          code: CODES[denial.reason] ?? 422,
          reason: denial.reason,
          message: `${qualifiedResourceOf(a)} "${a.name}" is forbidden: ${cause}`,
          details: { name: a.name, ...(a.resource.group ? { group: a.resource.group } : {}), kind: a.resource.resource, causes: [{ message: cause }] },
        },
        warnings,
      };
    },
  };
}
