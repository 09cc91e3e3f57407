// `POST /api/v1/namespaces/{ns}/serviceaccounts/{name}/token` (KK pkg/registry/core/serviceaccount/
// storage/token.go, pkg/apis/authentication/validation): a TokenRequest (authentication.k8s.io/v1)
// is answered 201 with `status.token` and `status.expirationTimestamp`; nothing is stored. The
// spec's audiences default to the API server's, expirationSeconds to 3600 (at least 600, at most
// 2^32, capped by the server's maximum with a warning), and the token may be bound to a Pod,
// Secret or Node of the ServiceAccount, which it then lives no longer than.
import { failure, invalid, notFound, StatusError, badRequest } from '../status.js';
import { invalidValue } from '../schema/fieldErrors.js';
import { reviewDecoder, type JsonMap } from './reviewDecode.js';
import type { ObjectRefClaim, ServiceAccountTokenIssuer, TokenGrant, TokenObjectLookup } from './serviceAccountToken.js';

const KIND = 'TokenRequest';
const GROUP = 'authentication.k8s.io';
const MIN_EXPIRATION_S = 600;
const MAX_EXPIRATION_S = 2 ** 32;

/**
 * What a TokenRequest asks for (`authentication.k8s.io/v1` TokenRequestSpec).
 *
 * @example
 * ```ts
 * const spec: TokenRequestSpec = { audiences: ['vault'], expirationSeconds: 600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web-0' } };
 * ```
 */
export interface TokenRequestSpec {
  readonly audiences?: ReadonlyArray<string>;
  readonly expirationSeconds?: number;
  readonly boundObjectRef?: { readonly kind: 'Pod' | 'Secret' | 'Node'; readonly apiVersion: string; readonly name: string; readonly uid?: string };
}

/**
 * Where a TokenRequest is posted and what answers it.
 *
 * @example
 * ```ts
 * const ctx: TokenRequestContext = { namespace: 'shop', name: 'app', lookup, issuer, now: () => Date.now() };
 * ```
 */
export interface TokenRequestContext {
  /** The namespace and ServiceAccount name of the URL. */
  readonly namespace: string;
  readonly name: string;
  readonly lookup: TokenObjectLookup;
  readonly issuer: ServiceAccountTokenIssuer;
  /** The clock, ms since the epoch. */
  readonly now: () => number;
  /** `--service-account-max-token-expiration` in seconds; 0 or undefined: no maximum. */
  readonly maxExpirationSeconds?: number;
}

/**
 * The TokenRequest answered, and the warnings to send with it (`Warning: 299 - "..."`).
 *
 * @example
 * ```ts
 * const { object, warnings } = tokenRequest(body, ctx);
 * (object.status as { token: string }).token;
 * ```
 */
export interface TokenRequestAnswer {
  readonly object: JsonMap;
  readonly warnings: ReadonlyArray<string>;
}

interface BoundRef {
  readonly kind: string;
  readonly apiVersion: string;
  readonly name: string;
  readonly uid: string;
}

function decode(body: unknown): { meta: { name: string; namespace: string }; audiences: string[]; expirationSeconds: number; ref?: BoundRef; attestations?: JsonMap } {
  const read = reviewDecoder(KIND, 'authentication.k8s.io/v1');
  const obj = read.body(body);
  const meta = read.object(obj.metadata, `${KIND}.metadata`, 'v1.ObjectMeta') ?? {};
  const spec = read.object(obj.spec, `${KIND}.spec`, 'v1.TokenRequestSpec') ?? {};
  const exp = spec.expirationSeconds;
  if (exp !== undefined && exp !== null && (typeof exp !== 'number' || !Number.isInteger(exp))) {
    const what = typeof exp === 'number' ? `number ${exp}` : Array.isArray(exp) ? 'array' : typeof exp;
    throw badRequest(`${KIND} in version "v1" cannot be handled as a ${KIND}: json: cannot unmarshal ${what} into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64`);
  }
  const ref = read.object(spec.boundObjectRef, 'TokenRequestSpec.spec.boundObjectRef', 'v1.BoundObjectReference');
  const at = (f: string) => read.string(ref?.[f], `BoundObjectReference.spec.boundObjectRef.${f}`);
  const attestations = read.object(spec.attestations, 'TokenRequestSpec.spec.attestations', 'map[string]v1.AttestationValue');
  return {
    meta: { name: read.string(meta.name, 'ObjectMeta.metadata.name'), namespace: read.string(meta.namespace, 'ObjectMeta.metadata.namespace') },
    audiences: read.strings(spec.audiences, 'TokenRequestSpec.spec.audiences'),
    expirationSeconds: typeof exp === 'number' ? exp : 3600,
    ...(ref && { ref: { kind: at('kind'), apiVersion: at('apiVersion'), name: at('name'), uid: at('uid') } }),
    ...(attestations && Object.keys(attestations).length > 0 && { attestations }),
  };
}

// `Group/Version, Kind=Kind`, as schema.GroupVersionKind prints.
function gvkText(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  return `${group}/${version}, Kind=${kind}`;
}

/** The Pod, Secret or Node the token is bound to, checked as kube checks it. */
function bindTo(ref: BoundRef, ctx: TokenRequestContext): Pick<TokenGrant, 'pod' | 'secret' | 'node'> {
  const group = ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '';
  const kinds = { Pod: 'pods', Secret: 'secrets', Node: 'nodes' } as const;
  const resource = group === '' ? kinds[ref.kind as keyof typeof kinds] : undefined;
  if (!resource) throw badRequest(`cannot bind token to object of type ${gvkText(ref.apiVersion, ref.kind)}`);
  const obj = ctx.lookup(resource, resource === 'nodes' ? '' : ctx.namespace, ref.name);
  if (!obj) throw notFound({ plural: resource, group: '' }, ref.name);
  const uid = obj.metadata?.uid ?? '';
  if (ref.uid && ref.uid !== uid) {
    const why = `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`;
    throw new StatusError(failure(409, 'Conflict', `Operation cannot be fulfilled on ${ref.kind} ${JSON.stringify(ref.name)}: ${why}`, { name: ref.name, kind: ref.kind }));
  }
  const claim: ObjectRefClaim = { name: ref.name, uid };
  if (resource === 'secrets') return { secret: claim };
  if (resource === 'nodes') return { node: claim };
  const spec = (obj as { spec?: { serviceAccountName?: unknown; nodeName?: unknown } }).spec;
  if ((spec?.serviceAccountName ?? '') !== ctx.name) {
    throw badRequest(`cannot bind token for serviceaccount ${JSON.stringify(ctx.name)} to pod running with different serviceaccount name.`);
  }
  // The pod's node is named in the token for information; its uid only if the Node exists.
  const nodeName = typeof spec?.nodeName === 'string' ? spec.nodeName : '';
  const node = nodeName ? ctx.lookup('nodes', '', nodeName) : undefined;
  return { pod: claim, ...(nodeName && { node: { name: nodeName, ...(node?.metadata?.uid && { uid: node.metadata.uid }) } }) };
}

const rfc3339 = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * Answers a TokenRequest, or throws kube's 400, 404, 409 or 422.
 *
 * @example
 * ```ts
 * const { object } = tokenRequest({ spec: { expirationSeconds: 600 } }, { namespace: 'shop', name: 'app', lookup, issuer, now: () => Date.now() });
 * ```
 */
export function tokenRequest(body: unknown, ctx: TokenRequestContext): TokenRequestAnswer {
  const req = decode(body);
  if (req.meta.name && req.meta.name !== ctx.name) {
    throw invalid(KIND, GROUP, ctx.name, [invalidValue('metadata.name', req.meta.name, 'must match the service account name if specified')]);
  }
  if (req.meta.namespace && req.meta.namespace !== ctx.namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  const sa = ctx.lookup('serviceaccounts', ctx.namespace, ctx.name);
  if (!sa) throw notFound({ plural: 'serviceaccounts', group: '' }, ctx.name);
  const audiences = req.audiences.length > 0 ? req.audiences : [...ctx.issuer.apiAudiences];
  // Attestations belong to webhook-bound tokens, which this server does not issue: that error alone, as kube answers it.
  if (req.attestations) throw invalid(KIND, GROUP, '', [invalidValue('spec.attestations', req.attestations, 'attestations may only be specified with a webhook bound object reference')]);
  const errors = [];
  if (req.expirationSeconds < MIN_EXPIRATION_S) errors.push(invalidValue('spec.expirationSeconds', req.expirationSeconds, 'may not specify a duration less than 10 minutes'));
  if (req.expirationSeconds > MAX_EXPIRATION_S) errors.push(invalidValue('spec.expirationSeconds', req.expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  if (errors.length > 0) throw invalid(KIND, GROUP, '', errors);
  const bound = req.ref ? bindTo(req.ref, ctx) : {};
  const warnings: string[] = [];
  let expirationSeconds = req.expirationSeconds;
  const max = ctx.maxExpirationSeconds ?? 0;
  if (max > 0 && expirationSeconds > max) {
    warnings.push(`requested expiration of ${expirationSeconds} seconds shortened to ${max} seconds`);
    expirationSeconds = max;
  }
  const now = ctx.now();
  const uid = sa.metadata?.uid ?? '';
  const { token } = ctx.issuer.issue({ namespace: ctx.namespace, serviceAccount: { name: ctx.name, uid }, audiences, expirationSeconds, ...bound });
  const object = {
    kind: KIND,
    apiVersion: `${GROUP}/v1`,
    metadata: { name: ctx.name, namespace: ctx.namespace, uid, creationTimestamp: rfc3339(now) },
    spec: { audiences, expirationSeconds, ...(req.ref && { boundObjectRef: Object.fromEntries(Object.entries(req.ref).filter(([, v]) => v !== '')) }) },
    status: { token, expirationTimestamp: rfc3339(now + expirationSeconds * 1000) },
  };
  return { object, warnings };
}
