import type { WebhookClientConfig, WebhookMatchCondition, WebhookRule, WebhookService } from './webhookConfigurationTypes.js';
import { ConfigError } from '../configError.js';
import { causeMessage } from '../errors.js';
import { labelKeyProblem } from '../labels/labelRequirement.js';
import { labelSelectorFromObject, type LabelSelectorObject } from '../labels/labelSelector.js';
import { compileMatchCondition } from './matchConditionCompiler.js';
import {
  aggregate,
  dns1035LabelProblems,
  dns1123SubdomainProblems,
  duplicate,
  fullyQualifiedName,
  invalid,
  notSupported,
  required,
  tooMany,
  type FieldError,
} from './fieldErrors.js';

/**
 * A webhook configuration, validating or mutating, as {@link validateWebhookConfiguration} reads it.
 *
 * @example
 * ```ts
 * const config: WebhookConfigurationLike = { kind: 'ValidatingWebhookConfiguration', metadata: { name: 'backups' }, webhooks: [] };
 * ```
 */
export interface WebhookConfigurationLike {
  readonly kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration';
  readonly metadata?: { readonly name?: string };
  readonly webhooks?: ReadonlyArray<WebhookLike>;
}

/**
 * One webhook of a configuration, as the validator reads it (every field optional: it checks).
 *
 * @example
 * ```ts
 * const hook: WebhookLike = { name: 'a.b.example.com', sideEffects: 'None', admissionReviewVersions: ['v1'], clientConfig: { url: 'https://h/x' } };
 * ```
 */
export interface WebhookLike {
  readonly name?: string;
  readonly clientConfig?: WebhookClientConfig;
  readonly rules?: ReadonlyArray<WebhookRule>;
  readonly failurePolicy?: string;
  readonly matchPolicy?: string;
  readonly sideEffects?: string;
  readonly timeoutSeconds?: number;
  readonly namespaceSelector?: LabelSelectorObject;
  readonly objectSelector?: LabelSelectorObject;
  readonly matchConditions?: ReadonlyArray<WebhookMatchCondition>;
  readonly admissionReviewVersions?: ReadonlyArray<string>;
  readonly reinvocationPolicy?: string;
}

/**
 * A webhook configuration kube would refuse at creation (its 422), found before anything is sent:
 * `causes` lists every problem as kube words it (`webhooks[0].timeoutSeconds: Invalid value: 31:
 * the timeout value must be between 1 and 30 seconds`), and the message is kube's whole text.
 *
 * @example
 * ```ts
 * try { validatingWebhook({ name: 'short', ... }); } catch (e) { if (e instanceof WebhookConfigurationError) console.error(e.causes); }
 * ```
 */
export class WebhookConfigurationError extends ConfigError {
  /** Every problem: the field and kube's text for it. */
  readonly causes: ReadonlyArray<FieldError>;

  constructor(kind: string, name: string, causes: ReadonlyArray<FieldError>) {
    super(causes[0]?.field ?? 'webhooks', `${kind}.admissionregistration.k8s.io ${JSON.stringify(name)} is invalid: ${aggregate(causes)}`);
    this.causes = causes;
  }
}

const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const REINVOCATION = ['IfNeeded', 'Never'];
const REVIEW_VERSIONS = ['v1', 'v1beta1'];

const wildcardAmongOthers = (list: ReadonlyArray<string>): boolean => list.length > 1 && list.includes('*');

function resourcesErrors(resources: ReadonlyArray<string>, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (resources.length === 0) errors.push(required(field));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let plain = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') return void errors.push(required(`${field}[${i}]`));
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) return void (plain = resSub !== '*');
    const [res, sub] = [resSub.slice(0, slash), resSub.slice(slash + 1)];
    if (withWildcardSub.has(res)) errors.push(invalid(`${field}[${i}]`, resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildcardRes.has(sub)) errors.push(invalid(`${field}[${i}]`, resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errors.push(invalid(field, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && plain) errors.push(invalid(field, resources, "if '*' is present, must not specify other resources without subresources"));
  return errors;
}

function ruleErrors(rule: WebhookRule, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const ops = rule.operations ?? [];
  if (ops.length === 0) errors.push(required(`${field}.operations`));
  if (wildcardAmongOthers(ops)) errors.push(invalid(`${field}.operations`, ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => OPERATIONS.includes(op) || errors.push(notSupported(`${field}.operations[${i}]`, op, OPERATIONS)));
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) errors.push(required(`${field}.apiGroups`));
  if (wildcardAmongOthers(groups)) errors.push(invalid(`${field}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  const versions = rule.apiVersions ?? [];
  if (versions.length === 0) errors.push(required(`${field}.apiVersions`));
  if (wildcardAmongOthers(versions)) errors.push(invalid(`${field}.apiVersions`, versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => v === '' && errors.push(required(`${field}.apiVersions[${i}]`)));
  errors.push(...resourcesErrors(rule.resources ?? [], `${field}.resources`));
  if (rule.scope !== undefined && !SCOPES.includes(rule.scope)) errors.push(notSupported(`${field}.scope`, rule.scope, SCOPES));
  return errors;
}

const FORM = '; desired format: https://host[/path]';

function urlErrors(url: string, field: string): FieldError[] {
  let u: URL;
  try {
    u = new URL(url);
  } catch (e) {
    return [required(field, `url must be a valid URL: ${causeMessage(e)}${FORM}`)];
  }
  const errors: FieldError[] = [];
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'https') errors.push(invalid(field, scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (u.host === '') errors.push(invalid(field, u.host, `host must be provided${FORM}`));
  if (u.username || u.password) errors.push(invalid(field, u.password ? `${u.username}:${u.password}` : u.username, 'user information is not permitted in the URL'));
  if (u.hash) errors.push(invalid(field, u.hash.slice(1), 'fragments are not permitted in the URL'));
  if (u.search) errors.push(invalid(field, u.search.slice(1), 'query parameters are not permitted in the URL'));
  return errors;
}

function serviceErrors(s: WebhookService, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!s.name) errors.push(required(`${field}.name`, 'service name is required'));
  if (!s.namespace) errors.push(required(`${field}.namespace`, 'service namespace is required'));
  const port = s.port ?? 443;
  if (!Number.isInteger(port) || port < 1 || port > 65535) errors.push(invalid(`${field}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  const path = s.path;
  if (path === undefined || path === '' || path === '/') return errors;
  if (path === '//') return [...errors, invalid(`${field}.path`, path, 'segment[0] may not be empty')];
  if (!path.startsWith('/')) errors.push(invalid(`${field}.path`, path, "must start with a '/'"));
  let check = path.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step === '') return void errors.push(invalid(`${field}.path`, path, `segment[${i}] may not be empty`));
    for (const p of dns1123SubdomainProblems(step)) errors.push(invalid(`${field}.path`, path, `segment[${i}]: ${p}`));
  });
  return errors;
}

function clientConfigErrors(cc: WebhookClientConfig | undefined, field: string): FieldError[] {
  if (!cc || (cc.url === undefined) === (cc.service === undefined)) return [required(field, 'exactly one of url or service is required')];
  return cc.url !== undefined ? urlErrors(cc.url, `${field}.url`) : serviceErrors(cc.service as WebhookService, `${field}.service`);
}

function selectorErrors(selector: LabelSelectorObject | undefined, field: string): FieldError[] {
  if (!selector) return [];
  try {
    labelSelectorFromObject(selector);
    return [];
  } catch (e) {
    return [invalid(field, selector, causeMessage(e))];
  }
}

function matchConditionErrors(conditions: ReadonlyArray<WebhookMatchCondition>, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (conditions.length > 64) errors.push(tooMany(field, conditions.length, 64));
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const expression = (c.expression ?? '').trim();
    if (expression === '') errors.push(required(`${field}[${i}].expression`));
    else {
      const problem = compileMatchCondition(expression);
      if (problem !== undefined) errors.push(invalid(`${field}[${i}].expression`, expression, problem));
    }
    if (!c.name) errors.push(required(`${field}[${i}].name`));
    else {
      const problem = labelKeyProblem(c.name);
      if (problem !== undefined) errors.push(invalid(`${field}[${i}].name`, c.name, problem));
      if (names.has(c.name)) errors.push(duplicate(`${field}[${i}].name`, c.name));
      names.add(c.name);
    }
  });
  return errors;
}

function reviewVersionErrors(versions: ReadonlyArray<string> | undefined, field: string): FieldError[] {
  if (!versions || versions.length === 0) return [required(field, `must specify one of ${REVIEW_VERSIONS.join(', ')}`)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) return void errors.push(invalid(`${field}[${i}]`, v, 'duplicate version'));
    seen.add(v);
    for (const p of dns1035LabelProblems(v)) errors.push(invalid(`${field}[${i}]`, v, p));
  });
  if (!versions.some((v) => REVIEW_VERSIONS.includes(v))) errors.push(invalid(field, versions, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
  return errors;
}

function webhookErrors(hook: WebhookLike, mutating: boolean, field: string): FieldError[] {
  const errors = fullyQualifiedName(`${field}.name`, hook.name ?? '');
  (hook.rules ?? []).forEach((rule, i) => errors.push(...ruleErrors(rule, `${field}.rules[${i}]`)));
  if (hook.failurePolicy !== undefined && !FAILURE_POLICIES.includes(hook.failurePolicy)) errors.push(notSupported(`${field}.failurePolicy`, hook.failurePolicy, FAILURE_POLICIES));
  if (hook.matchPolicy !== undefined && !MATCH_POLICIES.includes(hook.matchPolicy)) errors.push(notSupported(`${field}.matchPolicy`, hook.matchPolicy, MATCH_POLICIES));
  if (hook.sideEffects === undefined) errors.push(required(`${field}.sideEffects`, `must specify one of ${SIDE_EFFECTS.join(', ')}`));
  else if (!SIDE_EFFECTS.includes(hook.sideEffects)) errors.push(notSupported(`${field}.sideEffects`, hook.sideEffects, SIDE_EFFECTS));
  const t = hook.timeoutSeconds;
  if (t !== undefined && (t > 30 || t < 1)) errors.push(invalid(`${field}.timeoutSeconds`, t, 'the timeout value must be between 1 and 30 seconds'));
  errors.push(...selectorErrors(hook.namespaceSelector, `${field}.namespaceSelector`), ...selectorErrors(hook.objectSelector, `${field}.objectSelector`));
  if (mutating && hook.reinvocationPolicy !== undefined && !REINVOCATION.includes(hook.reinvocationPolicy)) {
    errors.push(notSupported(`${field}.reinvocationPolicy`, hook.reinvocationPolicy, REINVOCATION));
  }
  errors.push(...clientConfigErrors(hook.clientConfig, `${field}.clientConfig`));
  errors.push(...matchConditionErrors(hook.matchConditions ?? [], `${field}.matchConditions`));
  return errors;
}

/**
 * The problems kube-apiserver would refuse a new ValidatingWebhookConfiguration or
 * MutatingWebhookConfiguration for (its creation checks: names, rules, policies, timeouts,
 * selectors, clientConfig, matchConditions compiled as CEL, admissionReviewVersions), worded as
 * kube words them. Empty when kube would accept it.
 *
 * @example
 * ```ts
 * webhookConfigurationProblems({ kind: 'ValidatingWebhookConfiguration', metadata: { name: 'x' }, webhooks: [{ name: 'short', sideEffects: 'None' }] });
 * // [{ field: 'webhooks[0].name', message: 'Invalid value: "short": should be a domain with at least three segments separated by dots' }, ...]
 * ```
 */
export function webhookConfigurationProblems(config: WebhookConfigurationLike): FieldError[] {
  const errors: FieldError[] = [];
  const name = config.metadata?.name ?? '';
  if (name === '') errors.push(required('metadata.name', 'name or generateName is required'));
  else for (const p of dns1123SubdomainProblems(name)) errors.push(invalid('metadata.name', name, p));
  const mutating = config.kind === 'MutatingWebhookConfiguration';
  const names = new Set<string>();
  (config.webhooks ?? []).forEach((hook, i) => {
    errors.push(...webhookErrors(hook, mutating, `webhooks[${i}]`));
    errors.push(...reviewVersionErrors(hook.admissionReviewVersions, `webhooks[${i}].admissionReviewVersions`));
    if (hook.name) {
      if (names.has(hook.name)) errors.push(duplicate(`webhooks[${i}].name`, hook.name));
      names.add(hook.name);
    }
  });
  return errors;
}

/**
 * Throws {@link WebhookConfigurationError} when kube would refuse `config` at creation
 * ({@link webhookConfigurationProblems}); returns it otherwise.
 *
 * @example
 * ```ts
 * validateWebhookConfiguration(configs.validating); // throws, naming every problem, or returns it
 * ```
 */
export function validateWebhookConfiguration<C extends WebhookConfigurationLike>(config: C): C {
  const problems = webhookConfigurationProblems(config);
  if (problems.length > 0) throw new WebhookConfigurationError(config.kind, config.metadata?.name ?? '', problems);
  return config;
}
