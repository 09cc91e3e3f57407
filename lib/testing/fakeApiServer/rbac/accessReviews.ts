// SelfSubjectAccessReview, SubjectAccessReview and LocalSubjectAccessReview (authorization.k8s.io/v1;
// KK pkg/registry/authorization/*, pkg/apis/authorization/validation): the spec is validated (one
// 422 with every cause), the authorizer decides for the user (the caller's own, or the spec's), and
// the answer is the request's spec with a status; nothing is stored. `kubectl auth can-i` sends a
// SelfSubjectAccessReview.
import { invalidValue, required } from '../schema/fieldErrors.js';
import { badRequest, invalid, type FieldError } from '../status.js';
import type { AuthorizationAttributes } from './attributes.js';
import type { Authorizer } from './authorizer.js';
import { reviewDecoder, type JsonMap, type ReviewDecoder } from './reviewDecode.js';
import type { UserInfo } from './userInfo.js';

const GROUP = 'authorization.k8s.io';
const API_VERSION = `${GROUP}/v1`;
const RESOURCE_FIELDS = ['namespace', 'verb', 'group', 'version', 'resource', 'subresource', 'name'] as const;

/** The kinds answered here. */
type ReviewKind = 'SelfSubjectAccessReview' | 'SubjectAccessReview' | 'LocalSubjectAccessReview';

interface ReviewSpec {
  readonly resourceAttributes?: { readonly [K in (typeof RESOURCE_FIELDS)[number]]: string } & { readonly fieldSelector?: JsonMap; readonly labelSelector?: JsonMap };
  readonly nonResourceAttributes?: { readonly path: string; readonly verb: string };
  readonly user: string;
  readonly groups: string[];
  readonly uid: string;
  readonly extra: { [key: string]: string[] };
}

function decodeSpec(read: ReviewDecoder, raw: unknown): ReviewSpec {
  const spec = read.object(raw, 'SubjectAccessReviewSpec.spec', 'v1.SubjectAccessReviewSpec') ?? {};
  const ra = read.object(spec.resourceAttributes, 'SubjectAccessReviewSpec.spec.resourceAttributes', 'v1.ResourceAttributes');
  const nra = read.object(spec.nonResourceAttributes, 'SubjectAccessReviewSpec.spec.nonResourceAttributes', 'v1.NonResourceAttributes');
  const at = (f: string) => `ResourceAttributes.spec.resourceAttributes.${f}`;
  return {
    ...(ra && {
      resourceAttributes: {
        ...(Object.fromEntries(RESOURCE_FIELDS.map((f) => [f, read.string(ra[f], at(f))])) as { [K in (typeof RESOURCE_FIELDS)[number]]: string }),
        ...(read.object(ra.fieldSelector, at('fieldSelector'), 'v1.FieldSelectorAttributes') && { fieldSelector: ra.fieldSelector as JsonMap }),
        ...(read.object(ra.labelSelector, at('labelSelector'), 'v1.LabelSelectorAttributes') && { labelSelector: ra.labelSelector as JsonMap }),
      },
    }),
    ...(nra && {
      nonResourceAttributes: {
        path: read.string(nra.path, 'NonResourceAttributes.spec.nonResourceAttributes.path'),
        verb: read.string(nra.verb, 'NonResourceAttributes.spec.nonResourceAttributes.verb'),
      },
    }),
    user: read.string(spec.user, 'SubjectAccessReviewSpec.spec.user'),
    groups: read.strings(spec.groups, 'SubjectAccessReviewSpec.spec.groups'),
    uid: read.string(spec.uid, 'SubjectAccessReviewSpec.spec.uid'),
    extra: read.stringLists(spec.extra, 'SubjectAccessReviewSpec.spec.extra'),
  };
}

// Go omits the empty fields of the attributes when it writes them back.
const nonEmpty = (o: object): JsonMap => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && v !== undefined));

function selectorErrors(selector: JsonMap | undefined, path: string): FieldError[] {
  if (!selector) return [];
  const raw = typeof selector.rawSelector === 'string' ? selector.rawSelector : '';
  const reqs = Array.isArray(selector.requirements) ? selector.requirements : [];
  if (raw && reqs.length > 0) return [invalidValue(`${path}.rawSelector`, raw, 'may not specified at the same time as requirements')];
  if (!raw && reqs.length === 0) return [required(`${path}.requirements`, `when ${path} is specified, requirements or rawSelector is required`)];
  return [];
}

function specErrors(spec: ReviewSpec, withSubject: boolean): FieldError[] {
  const errors: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    errors.push(invalidValue('spec.nonResourceAttributes', nonEmpty(spec.nonResourceAttributes), 'cannot be specified in combination with resourceAttributes'));
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    errors.push(invalidValue('spec.resourceAttributes', null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  if (withSubject && !spec.user && spec.groups.length === 0) errors.push(invalidValue('spec.user', spec.user, 'at least one of user or group must be specified'));
  errors.push(...selectorErrors(spec.resourceAttributes?.fieldSelector, 'spec.resourceAttributes.fieldSelector'));
  errors.push(...selectorErrors(spec.resourceAttributes?.labelSelector, 'spec.resourceAttributes.labelSelector'));
  return errors;
}

// metadata must be empty (LocalSubjectAccessReview: but for its namespace); managedFields and
// null values do not count (kubectl sends `creationTimestamp: null`).
function metadataErrors(meta: JsonMap | undefined, allowNamespace: boolean): FieldError[] {
  const set = Object.fromEntries(Object.entries(meta ?? {}).filter(([k, v]) => v !== null && v !== undefined && k !== 'managedFields'));
  const rest = Object.keys(set).filter((k) => !(allowNamespace && k === 'namespace'));
  if (rest.length === 0) return [];
  return [invalidValue('metadata', set, allowNamespace ? 'must be empty except for namespace' : 'must be empty')];
}

function attributesOf(spec: ReviewSpec, user: UserInfo): AuthorizationAttributes {
  const ra = spec.resourceAttributes;
  if (ra) return { kind: 'resource', user, verb: ra.verb, group: ra.group, version: ra.version, resource: ra.resource, subresource: ra.subresource, name: ra.name, namespace: ra.namespace };
  return { kind: 'nonResource', user, verb: spec.nonResourceAttributes!.verb, path: spec.nonResourceAttributes!.path };
}

function echoSpec(spec: ReviewSpec, withSubject: boolean): JsonMap {
  const ra = spec.resourceAttributes;
  return nonEmpty({
    ...(ra && { resourceAttributes: nonEmpty(ra) }),
    ...(spec.nonResourceAttributes && { nonResourceAttributes: nonEmpty(spec.nonResourceAttributes) }),
    ...(withSubject && {
      user: spec.user,
      ...(spec.groups.length > 0 && { groups: spec.groups }),
      uid: spec.uid,
      ...(Object.keys(spec.extra).length > 0 && { extra: spec.extra }),
    }),
  });
}

function answer(kind: ReviewKind, metadata: JsonMap, spec: ReviewSpec, withSubject: boolean, user: UserInfo, authorize: Authorizer): JsonMap {
  const d = authorize(attributesOf(spec, user));
  return {
    kind,
    apiVersion: API_VERSION,
    metadata,
    spec: echoSpec(spec, withSubject),
    status: { allowed: d.decision === 'Allow', ...(d.decision === 'Deny' && { denied: true }), ...(d.reason && { reason: d.reason }) },
  };
}

/**
 * Answers a SelfSubjectAccessReview for the requesting user (201 with the spec and its status), or
 * throws kube's 400/422.
 *
 * @example
 * ```ts
 * selfSubjectAccessReview({ spec: { resourceAttributes: { verb: 'create', resource: 'pods', namespace: 'shop' } } }, user, authorize).status;
 * // { allowed: true }
 * ```
 */
export function selfSubjectAccessReview(body: unknown, user: UserInfo, authorize: Authorizer): JsonMap {
  const kind = 'SelfSubjectAccessReview';
  const read = reviewDecoder(kind);
  const obj = read.body(body);
  const spec = decodeSpec(read, obj.spec);
  const errors = [...specErrors(spec, false), ...metadataErrors(read.object(obj.metadata, `${kind}.metadata`, 'v1.ObjectMeta'), false)];
  if (errors.length > 0) throw invalid(kind, GROUP, '', errors);
  return answer(kind, {}, spec, false, user, authorize);
}

/**
 * Answers a SubjectAccessReview for the user and groups of its spec (no `system:authenticated`
 * is added: the spec says who).
 *
 * @example
 * ```ts
 * subjectAccessReview({ spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods' } } }, authorize);
 * ```
 */
export function subjectAccessReview(body: unknown, authorize: Authorizer): JsonMap {
  const kind = 'SubjectAccessReview';
  const read = reviewDecoder(kind);
  const obj = read.body(body);
  const spec = decodeSpec(read, obj.spec);
  const errors = [...specErrors(spec, true), ...metadataErrors(read.object(obj.metadata, `${kind}.metadata`, 'v1.ObjectMeta'), false)];
  if (errors.length > 0) throw invalid(kind, GROUP, '', errors);
  return answer(kind, {}, spec, true, subjectOf(spec), authorize);
}

const subjectOf = (spec: ReviewSpec): UserInfo => ({ name: spec.user, groups: spec.groups, ...(spec.uid && { uid: spec.uid }), extra: spec.extra });

/**
 * Answers a LocalSubjectAccessReview posted to `namespace`: resource attributes only, in that
 * namespace.
 *
 * @example
 * ```ts
 * localSubjectAccessReview({ spec: { user: 'alice', resourceAttributes: { namespace: 'shop', verb: 'get', resource: 'pods' } } }, 'shop', authorize);
 * ```
 */
export function localSubjectAccessReview(body: unknown, namespace: string, authorize: Authorizer): JsonMap {
  const kind = 'LocalSubjectAccessReview';
  const read = reviewDecoder(kind);
  const obj = read.body(body);
  const meta = read.object(obj.metadata, `${kind}.metadata`, 'v1.ObjectMeta');
  const given = read.string(meta?.namespace, 'ObjectMeta.metadata.namespace');
  // The create handler's namespace rule: the body's namespace is the URL's, or empty.
  if (given && given !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  const spec = decodeSpec(read, obj.spec);
  const errors = [...specErrors(spec, true), ...metadataErrors(meta, true)];
  const ra = spec.resourceAttributes;
  if (ra && ra.namespace !== namespace) errors.push(invalidValue('spec.resourceAttributes.namespace', ra.namespace, 'must match metadata.namespace'));
  if (spec.nonResourceAttributes) errors.push(invalidValue('spec.nonResourceAttributes', nonEmpty(spec.nonResourceAttributes), 'disallowed on this kind of request'));
  if (errors.length > 0) throw invalid(kind, GROUP, '', errors);
  return answer(kind, { namespace }, spec, true, subjectOf(spec), authorize);
}
