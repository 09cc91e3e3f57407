import type { SchedulerLike } from 'rxjs';
import { callWebhook, WebhookCallError, webhookUrl, type InProcessWebhook } from '../admission/webhookCall.js';
import type { MaybePromise } from '../admission/attributes.js';
import type { JsonObject } from '../resources.js';
import { failure, internalError, StatusError } from '../status.js';
import type { Strategy } from './strategy.js';

export type { ConversionStrategy } from './strategy.js';

// The conversion stage of the read and write paths for custom resources (ADMISSION.md §7; AX
// `apiserver/conversion/{converter,webhook_converter}.go`): objects live in the storage version;
// a request for another served version has them converted, by rewriting apiVersion (strategy
// None) or by a ConversionReview to the CRD's webhook (strategy Webhook), whose answer is checked
// as kube checks it. Built-in types differ between versions only by apiVersion here.

/** What conversion needs from the server: its clock, the budget of one call, the in-process webhooks by CRD name, uids. */
export interface ConversionDependencies {
  readonly scheduler: SchedulerLike;
  readonly timeoutMs: number;
  readonly inProcess: (crdName: string) => InProcessWebhook | undefined;
  readonly uid: () => string;
}

type Meta = { [k: string]: unknown; name?: unknown; namespace?: unknown; uid?: unknown; labels?: unknown; annotations?: unknown };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `example.com/v1, Kind=Backup`, as Go prints a GroupVersionKind. */
const gvkText = (obj: JsonObject): string => `${String(obj.apiVersion)}, Kind=${String(obj.kind)}`;

/** Why a webhook's answer cannot be used, in kube's words (ADMISSION.md §7's table). */
function checkAnswer(answer: unknown, uid: string, desired: string, inputs: ReadonlyArray<JsonObject>): JsonObject[] {
  if (!isObject(answer) || answer.apiVersion !== 'apiextensions.k8s.io/v1' || answer.kind !== 'ConversionReview') {
    const got = isObject(answer) ? `${String(answer.apiVersion ?? '')}, Kind=${String(answer.kind ?? '')}` : 'nothing';
    throw new Error(`expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${got}`);
  }
  const response = answer.response;
  if (!isObject(response)) throw new Error('no response provided');
  if (response.uid !== uid) throw new Error(`expected response.uid="${uid}", got "${String(response.uid ?? '')}"`);
  const result = isObject(response.result) ? response.result : {};
  if (result.status !== 'Success') {
    throw new Error(typeof result.message === 'string' && result.message !== '' ? result.message : `response.result.status was '${String(result.status ?? '')}', not 'Success'`);
  }
  const converted = Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
  if (converted.length !== inputs.length) throw new Error(`returned ${converted.length} objects, expected ${inputs.length}`);
  return inputs.map((input, i) => restoreMetadata(input, converted[i], desired, i));
}

/**
 * kube's `validateConvertedObject` and `restoreObjectMeta`: the converted object must be of the
 * desired version and the same kind, name, namespace and uid; its metadata is the input's but for
 * the labels and annotations the webhook gave.
 */
function restoreMetadata(input: JsonObject, out: unknown, desired: string, i: number): JsonObject {
  const at = `invalid converted object at index ${i}`;
  if (!isObject(out)) throw new Error(`returned ${at}: not an object`);
  if (out.apiVersion !== desired) throw new Error(`returned ${at}: invalid groupVersion (expected ${desired}, received ${String(out.apiVersion)})`);
  if (out.kind !== input.kind) throw new Error(`returned ${at}: invalid kind (expected ${String(input.kind)}, received ${String(out.kind)})`);
  const was = (input.metadata ?? {}) as Meta;
  const now = (isObject(out.metadata) ? out.metadata : {}) as Meta;
  for (const [field, label] of [['name', 'name'], ['namespace', 'namespace'], ['uid', 'UID']] as const) {
    if ((now[field] ?? '') !== (was[field] ?? '')) throw new Error(`returned ${at}: must have the same ${label}: ${String(was[field] ?? '')} != ${String(now[field] ?? '')}`);
  }
  const metadata: Meta = { ...was };
  for (const k of ['labels', 'annotations'] as const) {
    if (now[k] === undefined) delete metadata[k];
    else if (!isObject(now[k]) || Object.values(now[k]).some((v) => typeof v !== 'string')) throw new Error(`returned ${at}: metadata.${k} must be a map of strings`);
    else metadata[k] = now[k];
  }
  return { ...out, metadata };
}

/**
 * Where an object's failed conversion surfaces: a read gets a 500 without a reason (`Error from
 * server: conversion webhook for ... failed: ...`), a write kube's InternalError.
 *
 * @example
 * ```ts
 * const read: ConversionFailure = 'read';
 * ```
 */
export type ConversionFailure = 'read' | 'write';

/**
 * The conversion of custom resources between their served versions.
 *
 * @example
 * ```ts
 * const conversion = new Conversion({ scheduler, timeoutMs: 30_000, inProcess: () => undefined, uid: () => rng.uuid() });
 * const [v1alpha1] = await conversion.convert(strategy, [stored], 'example.com/v1alpha1', 'read');
 * ```
 */
export class Conversion {
  constructor(private readonly deps: ConversionDependencies) {}

  /** Whether converting `strategy`'s objects between versions calls a webhook (and so answers later). */
  usesWebhook(strategy: Strategy): boolean {
    return strategy.conversion?.strategy === 'Webhook';
  }

  /**
   * `objects` (of one resource) at `apiVersion`: those already there as they are, the others by
   * the resource's conversion. Never mutates its input.
   */
  convert(strategy: Strategy, objects: ReadonlyArray<JsonObject>, apiVersion: string, when: ConversionFailure): MaybePromise<JsonObject[]> {
    const conversion = strategy.conversion;
    const todo = objects.filter((o) => o.apiVersion !== apiVersion);
    if (todo.length === 0) return [...objects];
    if (conversion?.strategy !== 'Webhook') return objects.map((o) => (o.apiVersion === apiVersion ? o : { ...o, apiVersion }));
    const uid = this.deps.uid();
    const review = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid, desiredAPIVersion: apiVersion, objects: todo } };
    const handler = this.deps.inProcess(conversion.crdName);
    const config = conversion.clientConfig;
    let url: string | undefined;
    try {
      url = webhookUrl(config);
    } catch {
      url = undefined;
    }
    const service = config.service;
    const call = callWebhook({
      clientConfig: config,
      body: review,
      timeoutMs: this.deps.timeoutMs,
      scheduler: this.deps.scheduler,
      ...(handler && url !== undefined && !service ? { inProcess: new Map([[url, handler]]) } : {}),
      ...(handler && service ? { routes: new Map([[`${service.namespace}/${service.name}`, handler]]) } : {}),
    });
    return call.then(
      (answer) => {
        let converted: JsonObject[];
        try {
          converted = checkAnswer(answer, uid, apiVersion, todo);
        } catch (e) {
          throw failed(todo[0], (e as Error).message, when);
        }
        let next = 0;
        return objects.map((o) => (o.apiVersion === apiVersion ? o : converted[next++]));
      },
      (e: unknown) => {
        throw failed(todo[0], e instanceof WebhookCallError || e instanceof Error ? e.message : String(e), when);
      },
    );
  }
}

function failed(first: JsonObject, reason: string, when: ConversionFailure): StatusError {
  const message = `conversion webhook for ${gvkText(first)} failed: ${reason}`;
  return when === 'write' ? internalError(message) : new StatusError(failure(500, '', message));
}
