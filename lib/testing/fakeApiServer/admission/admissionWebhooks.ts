import type { SchedulerLike } from 'rxjs';
import type { LabelSelectorObject } from '../../../labels/labelSelector.js';
import type { JsonObject } from '../resources.js';
import { failure, StatusError } from '../status.js';
import { matchesConditions, type MatchConditionSpec } from './matchConditions.js';
import { isExemptFromAdmission, matchRules, namespaceSelectorMatches, objectSelectorMatches, type AdmissionRule, type RuleMatch, type ServedKind } from './admissionMatching.js';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionPluginContext, AdmissionResponse, MaybePromise } from './attributes.js';
import { callWebhook, type InProcessWebhook, type WebhookClientConfig, type WebhookRoutes } from './webhookCall.js';
import { admissionReview, InvalidWebhookResponse, reviewVersion, verifyAdmissionResponse, type WebhookAnswer } from './webhookReview.js';

// The MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins (AS
// admission/plugin/webhook/{mutating,validating}/dispatcher.go; ADMISSION.md §3, §4): the webhooks
// of the configurations stored in the server, matched, called through callWebhook, their answers
// checked and applied. Mutating webhooks run one after another (configurations by name),
// validating ones all at once.

/**
 * One webhook of a stored configuration (v1, defaulted when it was written).
 *
 * @example
 * ```ts
 * const hook: StoredWebhook = { name: 'deny.example.com', clientConfig: { url }, sideEffects: 'None', admissionReviewVersions: ['v1'] };
 * ```
 */
export interface StoredWebhook {
  readonly name: string;
  readonly clientConfig: WebhookClientConfig;
  readonly rules?: ReadonlyArray<AdmissionRule>;
  readonly failurePolicy?: string;
  readonly matchPolicy?: string;
  readonly namespaceSelector?: LabelSelectorObject;
  readonly objectSelector?: LabelSelectorObject;
  readonly sideEffects?: string;
  readonly timeoutSeconds?: number;
  readonly admissionReviewVersions?: ReadonlyArray<string>;
  readonly reinvocationPolicy?: string;
  readonly matchConditions?: ReadonlyArray<MatchConditionSpec>;
}

/**
 * A webhook with the configuration it belongs to (`configuration/webhook` identifies it).
 *
 * @example
 * ```ts
 * const w: ConfiguredWebhook = { configuration: 'backups', hook };
 * ```
 */
export interface ConfiguredWebhook {
  readonly configuration: string;
  readonly hook: StoredWebhook;
}

/**
 * What the webhook plugins read from the server: the stored webhooks in kube's order, namespaces,
 * served kinds, uids, the clock, and where Service-form and in-process webhooks go.
 *
 * @example
 * ```ts
 * const source: WebhookSource = { webhooks: () => [], namespaceOf: () => undefined, served: () => undefined, uuid: () => 'u', jsonPatch: (doc) => doc, scheduler: asyncScheduler };
 * ```
 */
export interface WebhookSource {
  webhooks(type: 'mutating' | 'validating'): ReadonlyArray<ConfiguredWebhook>;
  namespaceOf(name: string): JsonObject | undefined;
  readonly served: ServedKind;
  uuid(): string;
  /** RFC 6902 JSON Patch as the server applies it. */
  jsonPatch(doc: unknown, ops: unknown): unknown;
  readonly scheduler: SchedulerLike;
  readonly routes?: WebhookRoutes;
  readonly inProcess?: ReadonlyMap<string, InProcessWebhook>;
}

const internalError = (why: string): StatusError => new StatusError(failure(500, 'InternalError', `Internal error occurred: ${why}`, { causes: [{ message: why }] }));

/** kube's denial (AS webhook/errors ToStatusErr): the webhook's message, code at least 400. */
function denial(name: string, answer: WebhookAnswer): AdmissionResponse {
  const s = answer.status ?? {};
  const deniedBy = `admission webhook "${name}" denied the request`;
  const message = typeof s.message === 'string' && s.message ? `${deniedBy}: ${s.message}` : typeof s.reason === 'string' && s.reason ? `${deniedBy}: ${s.reason}` : `${deniedBy} without explanation`;
  const code = typeof s.code === 'number' && s.code >= 400 ? s.code : 400;
  const details = s.details as NonNullable<Extract<AdmissionResponse, { allowed: false }>['status']>['details'];
  return { allowed: false, status: { code, reason: typeof s.reason === 'string' ? s.reason : '', message, ...(details ? { details } : {}) }, warnings: answer.warnings };
}

/** Whether the webhook is to be called for this write, and at which version (undefined: skipped). */
function shouldCall(w: ConfiguredWebhook, a: AdmissionAttributes, source: WebhookSource): RuleMatch | undefined {
  const { hook } = w;
  if (!namespaceSelectorMatches(hook.namespaceSelector, a, (n) => source.namespaceOf(n))) return undefined;
  if (!objectSelectorMatches(hook.objectSelector, a)) return undefined;
  const match = matchRules(hook.rules ?? [], hook.matchPolicy, a, source.served);
  if (!match) return undefined;
  return matchesConditions(hook.matchConditions ?? [], a, hook.failurePolicy ?? 'Fail') ? match : undefined;
}

/** Calls one webhook: its checked answer, or undefined when it failed open (failurePolicy Ignore). */
async function call(w: ConfiguredWebhook, a: AdmissionAttributes, match: RuleMatch, mutating: boolean, source: WebhookSource): Promise<WebhookAnswer | undefined> {
  const { hook } = w;
  if (a.dryRun && hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun') {
    throw new StatusError(failure(400, 'BadRequest', `admission webhook "${hook.name}" does not support dry run`));
  }
  const review = admissionReview(a, match, reviewVersion(hook.admissionReviewVersions), source.uuid());
  try {
    if (hook.sideEffects === undefined) throw new InvalidWebhookResponse('Webhook SideEffects is nil');
    const answer = await callWebhook({
      clientConfig: hook.clientConfig,
      body: review,
      timeoutMs: (hook.timeoutSeconds ?? 10) * 1000,
      scheduler: source.scheduler,
      ...(source.routes ? { routes: source.routes } : {}),
      ...(source.inProcess ? { inProcess: source.inProcess } : {}),
    });
    return verifyAdmissionResponse(answer, review, mutating);
  } catch (e) {
    if (e instanceof StatusError) throw e;
    if (hook.failurePolicy === 'Ignore') return undefined;
    const reason = (e as { reason?: unknown }).reason;
    throw internalError(`failed calling webhook "${hook.name}": ${typeof reason === 'string' ? reason : e instanceof Error ? e.message : String(e)}`);
  }
}

/** Per request: the webhooks called that may be called again, and whether a change came after each. */
interface Round {
  readonly reinvocable: Map<string, boolean>;
  output: string;
  second: boolean;
}

const idOf = (w: ConfiguredWebhook): string => `${w.configuration}/${w.hook.name}`;

/** Applies a webhook's patch to the object: kube's 500s for a patch on DELETE or one that does not apply. */
function applyWebhookPatch(name: string, a: AdmissionAttributes, ops: unknown, ctx: AdmissionPluginContext | undefined, jsonPatch: WebhookSource['jsonPatch']): boolean {
  if (!Array.isArray(ops) || ops.length === 0) return false;
  if (a.operation === 'DELETE' || !a.object) throw internalError(`admission webhook "${name}" attempted to modify the object, which is not supported for this operation`);
  let patched: JsonObject;
  try {
    patched = jsonPatch(a.object, ops) as JsonObject;
  } catch (e) {
    throw internalError(e instanceof StatusError ? (e.status.message ?? '') : String(e));
  }
  const before = JSON.stringify(a.object);
  ctx?.redefault?.(patched);
  a.object = patched;
  return JSON.stringify(patched) !== before;
}

/**
 * kube's MutatingAdmissionWebhook plugin: each matching webhook in turn, its patch applied and the
 * object defaulted again before the next; `reinvocationPolicy: IfNeeded` webhooks are called once
 * more when the object changed after them.
 *
 * @example
 * ```ts
 * chain.register(mutatingAdmissionWebhooks(source), 'webhook');
 * ```
 */
export function mutatingAdmissionWebhooks(source: WebhookSource): AdmissionPlugin {
  const rounds = new WeakMap<AdmissionAttributes, Round>();
  return {
    name: 'MutatingAdmissionWebhook',
    reinvocationPolicy: 'IfNeeded',
    handles: (a) => !isExemptFromAdmission(a),
    wantsReinvocation: (a) => [...(rounds.get(a)?.reinvocable.values() ?? [])].some((changed) => changed),
    admit: (a, ctx) => {
      let round = rounds.get(a);
      if (!round) rounds.set(a, (round = { reinvocable: new Map(), output: '', second: false }));
      else {
        round.second = true;
        // A plugin after the webhooks changed the object: every reinvocable webhook runs again.
        if (JSON.stringify(a.object) !== round.output) for (const k of round.reinvocable.keys()) round.reinvocable.set(k, true);
      }
      const r = round;
      const hooks = source.webhooks('mutating');
      const warnings: string[] = [];
      // Synchronous until a webhook is to be called: a write no webhook matches answers at once
      // (the in-process helpers and the server's controllers can make it).
      const step = (i: number): MaybePromise<AdmissionResponse> => {
        for (; i < hooks.length; i++) {
          const w = hooks[i];
          if (r.second && r.reinvocable.get(idOf(w)) !== true) continue;
          const match = shouldCall(w, a, source);
          if (!match) continue;
          const next = i + 1;
          return call(w, a, match, true, source).then((answer) => {
            if (!answer) return step(next);
            warnings.push(...answer.warnings);
            if (!answer.allowed) return { ...denial(w.hook.name, answer), warnings } as AdmissionResponse;
            if (applyWebhookPatch(w.hook.name, a, answer.patch, ctx, source.jsonPatch)) for (const k of r.reinvocable.keys()) r.reinvocable.set(k, true);
            if (r.second) r.reinvocable.set(idOf(w), false);
            else if (w.hook.reinvocationPolicy === 'IfNeeded') r.reinvocable.set(idOf(w), false);
            return step(next);
          });
        }
        if (r.second) r.reinvocable.clear();
        r.output = JSON.stringify(a.object);
        return { allowed: true, warnings };
      };
      return step(0);
    },
  };
}

/**
 * kube's ValidatingAdmissionWebhook plugin: every matching webhook called at once on the finished
 * object; the first failure to arrive wins.
 *
 * @example
 * ```ts
 * chain.register(validatingAdmissionWebhooks(source), 'webhook');
 * ```
 */
export function validatingAdmissionWebhooks(source: WebhookSource): AdmissionPlugin {
  return {
    name: 'ValidatingAdmissionWebhook',
    handles: (a) => !isExemptFromAdmission(a),
    validate: (a) => {
      const calls: Array<Promise<WebhookAnswer | undefined>> = [];
      const names: string[] = [];
      for (const w of source.webhooks('validating')) {
        const match = shouldCall(w, a, source);
        if (!match) continue;
        calls.push(call(w, a, match, false, source));
        names.push(w.hook.name);
      }
      if (calls.length === 0) return undefined; // at once: nothing to wait for
      // Denials reject too, so that the first one to arrive wins, as kube's parallel calls do.
      return Promise.all(
        calls.map((p, i) =>
          p.then((answer) => {
            if (answer && !answer.allowed) throw new DeniedBy(denial(names[i], answer));
            return answer;
          }),
        ),
      ).then(
        (answers): AdmissionResponse => ({ allowed: true, warnings: answers.flatMap((x) => x?.warnings ?? []) }),
        (e: unknown) => {
          if (e instanceof DeniedBy) return e.response;
          throw e;
        },
      );
    },
  };
}

class DeniedBy extends Error {
  constructor(readonly response: AdmissionResponse) {
    super('denied');
  }
}
