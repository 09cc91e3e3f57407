import { defer, from, map, Observable, Subject } from 'rxjs';
import { ConfigError } from '../configError.js';
import { causeMessage } from '../errors.js';
import type { KubeObject } from '../meta/kubeObject.js';
import { firstWithSignal } from './admissionWebhook.js';
import type { ConversionRequest, ConversionResponse, ConversionReview } from './conversionReview.js';
import { finishConvertedObject } from './convertedObject.js';
import { parseConversionReview } from './parseReview.js';
import type { WebhookResource } from './webhookResource.js';
import { WebhookHandlerError } from './webhookErrors.js';

/**
 * Converts one object from one version to another: return the new object (sync or async). Its
 * `apiVersion` is set for you; its metadata is the input's, except the labels and annotations you
 * return (kube's rule); changing name, namespace, uid or kind fails the review.
 *
 * @example
 * ```ts
 * const up: Converter<BackupV1alpha1, BackupV1> = (old) => ({ ...old, spec: { schedule: old.spec?.cron } });
 * ```
 */
export type Converter<From, To> = (object: From) => To | PromiseLike<To>;

/**
 * A spoke version's two converters to and from the hub (controller-runtime's `Convertible`:
 * `ConvertTo(hub)` and `ConvertFrom(hub)`).
 *
 * @example
 * ```ts
 * const v1alpha1: Spoke<BackupV1alpha1, BackupV1> = { toHub: (o) => ({ ...o, spec: { schedule: o.spec?.cron } }), fromHub: (h) => ({ ...h, spec: { cron: h.spec?.schedule } }) };
 * ```
 */
export interface Spoke<S, H> {
  // Methods (not function properties): each spoke's own object types fit whatever hub type is inferred.
  toHub(object: S): H | PromiseLike<H>;
  fromHub(hub: H): S | PromiseLike<S>;
}

/**
 * What every conversion webhook declares besides its converters.
 *
 * @example
 * ```ts
 * const base: ConversionWebhookBase = { resource: backups, path: '/convert-backups', crdName: 'backups.example.com' };
 * ```
 */
export interface ConversionWebhookBase {
  /** The custom resource (its group, plural and kind; any of its versions). */
  readonly resource: WebhookResource<unknown>;
  /** The path the server serves it on. Default `/convert` (controller-runtime's). */
  readonly path?: string;
  /** The CRD whose `spec.conversion` names this webhook. Default `<plural>.<group>`. */
  readonly crdName?: string;
  /** `spec.conversion.webhook.conversionReviewVersions`. Default `['v1']`. */
  readonly conversionReviewVersions?: ReadonlyArray<'v1' | 'v1beta1'>;
}

/**
 * Conversion through a hub version (controller-runtime's Hub/Convertible): each other version
 * converts to and from the hub, and any two spokes convert through it.
 *
 * @example
 * ```ts
 * const options: HubConversionOptions<BackupV1, { v1alpha1: BackupV1alpha1 }> = { resource: backups, hub: 'v1', spokes: { v1alpha1 } };
 * ```
 */
export interface HubConversionOptions<H, S extends { readonly [version: string]: unknown }> extends ConversionWebhookBase {
  readonly hub: string;
  readonly spokes: { readonly [V in keyof S]: Spoke<S[V], H> };
}

/**
 * Conversion per version pair: `convert[from][to]`. A pair that is missing fails the review
 * naming it.
 *
 * @example
 * ```ts
 * const options: PairConversionOptions = { resource: backups, convert: { v1alpha1: { v1: up }, v1: { v1alpha1: down } } };
 * ```
 */
export interface PairConversionOptions extends ConversionWebhookBase {
  // `never` parameters accept a converter of any object type: the version decides which runs.
  readonly convert: { readonly [from: string]: { readonly [to: string]: Converter<never, unknown> } };
}

/**
 * A conversion webhook: the pure function that answers one ConversionReview, and what the CRD's
 * `spec.conversion` must say. `review` is what the HTTPS server calls for its path and what a test
 * calls directly.
 *
 * @example
 * ```ts
 * const answer = await convertBackups.review({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request });
 * answer.response?.convertedObjects;
 * ```
 */
export interface ConversionWebhook {
  readonly type: 'conversion';
  readonly path: string;
  readonly crdName: string;
  readonly resource: WebhookResource<unknown>;
  readonly conversionReviewVersions: ReadonlyArray<string>;
  /** Answers one ConversionReview; rejects only with `BadReviewError` for what is not one. */
  review(review: ConversionReview, options?: { readonly signal?: AbortSignal }): Promise<ConversionReview>;
  review$(review: ConversionReview): Observable<ConversionReview>;
  /** Converters that threw (each review was answered with a Failure). */
  readonly errors$: Observable<WebhookHandlerError>;
}

type AnyConverter = (object: KubeObject) => unknown;
type Route = ReadonlyArray<AnyConverter>;

const versionOf = (apiVersion: unknown): { group: string; version: string } | undefined => {
  if (typeof apiVersion !== 'string' || apiVersion === '') return undefined;
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
};

/** The converters that take `from` to `to`: the pair's, else through the hub; undefined if none. */
function routeFinder(options: HubConversionOptions<unknown, { readonly [v: string]: unknown }> | PairConversionOptions): (from: string, to: string) => Route | undefined {
  if ('convert' in options) return (f, t) => {
    const c = options.convert[f]?.[t];
    return c ? [c as AnyConverter] : undefined;
  };
  const { hub, spokes } = options;
  const spoke = (v: string) => (Object.prototype.hasOwnProperty.call(spokes, v) ? spokes[v] : undefined);
  return (f, t) => {
    const toHub: Route | undefined = f === hub ? [] : spoke(f) ? [spoke(f)!.toHub as AnyConverter] : undefined;
    const fromHub: Route | undefined = t === hub ? [] : spoke(t) ? [spoke(t)!.fromHub as AnyConverter] : undefined;
    return toHub && fromHub ? [...toHub, ...fromHub] : undefined;
  };
}

/** A failure of the whole review, with the message kube shows the client. */
class ReviewFailure extends Error {}
/** A converter threw: the review fails, and the webhook reports it on errors$. */
class ConverterFailure extends ReviewFailure {}

async function convertAll(request: ConversionRequest, resource: WebhookResource<unknown>, route: (f: string, t: string) => Route | undefined): Promise<KubeObject[]> {
  const desired = versionOf(request.desiredAPIVersion);
  if (!desired || desired.group !== resource.group) {
    throw new ReviewFailure(`desiredAPIVersion ${JSON.stringify(request.desiredAPIVersion)} is not a version of ${resource.group}: this webhook converts ${resource.kind}`);
  }
  const out: KubeObject[] = [];
  for (const [i, input] of request.objects.entries()) {
    const where = `objects[${i}]`;
    if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new ReviewFailure(`${where} is not an object`);
    const from = versionOf(input.apiVersion);
    if (!from || from.group !== resource.group) throw new ReviewFailure(`${where} has apiVersion ${JSON.stringify(input.apiVersion)}, not a version of ${resource.group}`);
    if (input.kind !== resource.kind) throw new ReviewFailure(`${where} has kind ${JSON.stringify(input.kind)}; this webhook converts ${resource.kind}`);
    if (from.version === desired.version) {
      out.push(input);
      continue;
    }
    const steps = route(from.version, desired.version);
    if (!steps) throw new ReviewFailure(`no conversion of ${resource.kind} from ${input.apiVersion} to ${request.desiredAPIVersion}`);
    let current: unknown = structuredClone(input);
    for (const step of steps) {
      try {
        current = await step(current as KubeObject);
      } catch (e) {
        const name = [input.metadata?.namespace, input.metadata?.name].filter(Boolean).join('/');
        throw new ConverterFailure(`${where} (${name}) from ${input.apiVersion} to ${request.desiredAPIVersion}: ${causeMessage(e)}`, { cause: e });
      }
      if (typeof current !== 'object' || current === null || Array.isArray(current)) throw new ReviewFailure(`${where}: the converter returned ${current === null ? 'null' : typeof current}, not an object`);
    }
    const finished = finishConvertedObject(input, current as KubeObject, request.desiredAPIVersion);
    if (typeof finished === 'string') throw new ReviewFailure(`${where}: ${finished}`);
    out.push(finished);
  }
  return out;
}

/**
 * A conversion webhook for a multi-version custom resource, through a hub version or per version
 * pair. Every object of a review is converted, or the whole review fails with a message naming
 * the object and the reason (kube then fails the client's request with it). An object already in
 * the desired version is returned as it is.
 *
 * @example
 * ```ts
 * import { conversionWebhook, webhookResource } from 'rxkube/webhooks';
 * interface BackupV1 { apiVersion?: string; kind?: string; spec?: { schedule?: string } }
 * interface BackupV1alpha1 { apiVersion?: string; kind?: string; spec?: { cron?: string } }
 * const backups = webhookResource<BackupV1>({ group: 'example.com', version: 'v1', plural: 'backups', kind: 'Backup', namespaced: true });
 * const convertBackups = conversionWebhook({
 *   resource: backups,
 *   hub: 'v1',
 *   spokes: {
 *     v1alpha1: {
 *       toHub: (o: BackupV1alpha1): BackupV1 => ({ ...o, spec: { schedule: o.spec?.cron } }),
 *       fromHub: (h: BackupV1): BackupV1alpha1 => ({ ...h, spec: { cron: h.spec?.schedule } }),
 *     },
 *   },
 * });
 * ```
 */
export function conversionWebhook<H, S extends { readonly [version: string]: unknown }>(options: HubConversionOptions<H, S>): ConversionWebhook;
export function conversionWebhook(options: PairConversionOptions): ConversionWebhook;
export function conversionWebhook(options: HubConversionOptions<unknown, { readonly [v: string]: unknown }> | PairConversionOptions): ConversionWebhook {
  const resource = options?.resource;
  if (!resource?.kind || !resource.group) throw new ConfigError('resource', 'conversionWebhook needs a custom resource with a group and kind (webhookResource(...))', { value: resource });
  if (!('convert' in options) && (typeof options.hub !== 'string' || typeof options.spokes !== 'object' || options.spokes === null)) {
    throw new ConfigError('hub', 'conversionWebhook needs either hub and spokes, or convert (per version pair)', { value: options });
  }
  const route = routeFinder(options);
  const path = options.path ?? '/convert';
  const errors = new Subject<WebhookHandlerError>();

  const review$ = (review: ConversionReview): Observable<ConversionReview> =>
    defer(() => {
      const { apiVersion, request } = parseConversionReview(review);
      const answer = convertAll(request, resource, route).then(
        (convertedObjects): ConversionResponse => ({ uid: request.uid, convertedObjects, result: { status: 'Success' } }),
        (e: unknown): ConversionResponse => {
          if (e instanceof ConverterFailure || !(e instanceof ReviewFailure)) errors.next(new WebhookHandlerError(path, 'conversion', request.uid, e instanceof ConverterFailure ? e.cause : e));
          return { uid: request.uid, convertedObjects: [], result: { status: 'Failure', message: causeMessage(e) } };
        },
      );
      return from(answer).pipe(map((response) => ({ apiVersion, kind: 'ConversionReview' as const, response })));
    });

  return Object.freeze({
    type: 'conversion' as const,
    path,
    crdName: options.crdName ?? `${resource.plural}.${resource.group}`,
    resource,
    conversionReviewVersions: Object.freeze([...(options.conversionReviewVersions ?? ['v1'])]),
    review$,
    review: (review: ConversionReview, o: { readonly signal?: AbortSignal } = {}) => firstWithSignal(review$(review), o.signal),
    errors$: errors.asObservable(),
  });
}
