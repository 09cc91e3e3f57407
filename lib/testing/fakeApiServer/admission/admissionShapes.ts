import type { JsonObject } from '../resources.js';
import { badRequest } from '../status.js';

// The decode step of the admissionregistration.k8s.io types: kube decodes a body into Go structs,
// so a field of the wrong JSON type is a 400 (`json: cannot unmarshal string into Go struct field
// ValidatingWebhookConfiguration.webhooks of type []v1.ValidatingWebhook`) before defaults and
// validation run. The shapes below name the fields the plugins and checks read.

/** A field's Go shape: a scalar, a struct (its fields), a list of a shape, or a map of strings. */
type Shape =
  | { readonly t: 'string' | 'int32' | 'bool' | 'any' }
  | { readonly t: 'struct'; readonly go: string; readonly fields: { readonly [name: string]: Shape } }
  | { readonly t: 'list'; readonly go: string; readonly item: Shape }
  | { readonly t: 'stringMap' };

const str: Shape = { t: 'string' };
const int32: Shape = { t: 'int32' };
const strings: Shape = { t: 'list', go: '[]string', item: str };
const struct = (go: string, fields: { readonly [name: string]: Shape }): Shape => ({ t: 'struct', go, fields });
const list = (go: string, item: Shape): Shape => ({ t: 'list', go: `[]${go}`, item });

const selector = struct('v1.LabelSelector', {
  matchLabels: { t: 'stringMap' },
  matchExpressions: list('v1.LabelSelectorRequirement', struct('v1.LabelSelectorRequirement', { key: str, operator: str, values: strings })),
});
const rule = struct('v1.RuleWithOperations', { operations: strings, apiGroups: strings, apiVersions: strings, resources: strings, scope: str, resourceNames: strings });
const conditions = list('v1.MatchCondition', struct('v1.MatchCondition', { name: str, expression: str }));
const clientConfig = struct('v1.WebhookClientConfig', {
  url: str,
  caBundle: str,
  service: struct('v1.ServiceReference', { namespace: str, name: str, path: str, port: int32 }),
});
const webhook = (go: string): Shape =>
  struct(go, {
    name: str,
    clientConfig,
    rules: list('v1.RuleWithOperations', rule),
    failurePolicy: str,
    matchPolicy: str,
    namespaceSelector: selector,
    objectSelector: selector,
    sideEffects: str,
    timeoutSeconds: int32,
    admissionReviewVersions: strings,
    reinvocationPolicy: str,
    matchConditions: conditions,
  });
const matchResources = struct('v1.MatchResources', {
  namespaceSelector: selector,
  objectSelector: selector,
  resourceRules: list('v1.NamedRuleWithOperations', rule),
  excludeResourceRules: list('v1.NamedRuleWithOperations', rule),
  matchPolicy: str,
});
const variables = list('v1.Variable', struct('v1.Variable', { name: str, expression: str }));
const paramKind = struct('v1.ParamKind', { apiVersion: str, kind: str });
const paramRef = struct('v1.ParamRef', { name: str, namespace: str, selector, parameterNotFoundAction: str });

const SHAPES: { readonly [kind: string]: { readonly [field: string]: Shape } } = {
  ValidatingWebhookConfiguration: { webhooks: list('v1.ValidatingWebhook', webhook('v1.ValidatingWebhook')) },
  MutatingWebhookConfiguration: { webhooks: list('v1.MutatingWebhook', webhook('v1.MutatingWebhook')) },
  ValidatingAdmissionPolicy: {
    spec: struct('v1.ValidatingAdmissionPolicySpec', {
      paramKind,
      matchConstraints: matchResources,
      validations: list('v1.Validation', struct('v1.Validation', { expression: str, message: str, reason: str, messageExpression: str })),
      failurePolicy: str,
      auditAnnotations: list('v1.AuditAnnotation', struct('v1.AuditAnnotation', { key: str, valueExpression: str })),
      matchConditions: conditions,
      variables,
    }),
  },
  ValidatingAdmissionPolicyBinding: {
    spec: struct('v1.ValidatingAdmissionPolicyBindingSpec', { policyName: str, paramRef, matchResources, validationActions: strings }),
  },
  MutatingAdmissionPolicy: {
    spec: struct('v1.MutatingAdmissionPolicySpec', {
      paramKind,
      matchConstraints: matchResources,
      variables,
      mutations: list(
        'v1.Mutation',
        struct('v1.Mutation', { patchType: str, applyConfiguration: struct('v1.ApplyConfiguration', { expression: str }), jsonPatch: struct('v1.JSONPatch', { expression: str }) }),
      ),
      failurePolicy: str,
      matchConditions: conditions,
      reinvocationPolicy: str,
    }),
  },
  MutatingAdmissionPolicyBinding: { spec: struct('v1.MutatingAdmissionPolicyBindingSpec', { policyName: str, paramRef, matchResources }) },
};

const jsonKind = (v: unknown): string => (Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v);
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first mismatch under `v`: the value, its Go field path and Go type. */
function mismatch(v: unknown, shape: Shape, path: string, go: string): { value: unknown; path: string; go: string } | undefined {
  if (v === null || v === undefined || shape.t === 'any') return undefined;
  switch (shape.t) {
    case 'string':
      return typeof v === 'string' ? undefined : { value: v, path, go: 'string' };
    case 'int32':
      return typeof v === 'number' && Number.isInteger(v) ? undefined : { value: v, path, go: 'int32' };
    case 'bool':
      return typeof v === 'boolean' ? undefined : { value: v, path, go: 'bool' };
    case 'stringMap':
      if (!isObject(v)) return { value: v, path, go: 'map[string]string' };
      for (const x of Object.values(v)) if (x !== null && typeof x !== 'string') return { value: x, path, go: 'string' };
      return undefined;
    case 'list':
      if (!Array.isArray(v)) return { value: v, path, go: shape.go };
      for (const x of v) {
        const m = mismatch(x, shape.item, path, go);
        if (m) return m;
      }
      return undefined;
    case 'struct':
      if (!isObject(v)) return { value: v, path, go: shape.go };
      for (const [k, s] of Object.entries(shape.fields)) {
        const m = mismatch(v[k], s, `${path}.${k}`, go);
        if (m) return m;
      }
      return undefined;
  }
}

/** As Go decodes nulls: a null field is absent, a null list item the zero struct (checks then say what is missing). */
function zeroNulls(v: unknown): void {
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      if (x === null) v[i] = {};
      else zeroNulls(x);
    });
  } else if (isObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (x === null) delete v[k];
      else zeroNulls(x);
    }
  }
}

/**
 * Throws kube's 400 when a field of an admissionregistration.k8s.io object has the wrong JSON type;
 * nulls become what Go makes of them (absent fields, zero list items), in place.
 *
 * @example
 * ```ts
 * checkAdmissionShape('ValidatingWebhookConfiguration', { webhooks: 'x' }); // throws 400
 * ```
 */
export function checkAdmissionShape(kind: string, obj: JsonObject): void {
  for (const [field, shape] of Object.entries(SHAPES[kind] ?? {})) {
    if (field in obj) zeroNulls(obj[field]);
    const m = mismatch(obj[field], shape, `${kind}.${field}`, kind);
    if (m) {
      throw badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: json: cannot unmarshal ${jsonKind(m.value)} into Go struct field ${m.path} of type ${m.go}`);
    }
  }
}
