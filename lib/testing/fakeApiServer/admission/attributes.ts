import type { Status } from '../../../errors.js';
import type { JsonObject } from '../resources.js';
import type { AdmissionOperation, GroupVersionKind, GroupVersionResource } from '../../../webhooks/admissionReview.js';

// What an admission plugin is told about a write and what it may answer (kube's
// `admission.Attributes`, the fields an AdmissionReview v1 request carries; ADMISSION.md §2).

// The operation, kinds and resources as an AdmissionReview carries them: rxkube/webhooks' types.
// (Its `UserInfo` is the wire's, every field optional; the server's, below, always knows who.)
export type { AdmissionOperation, GroupVersionKind, GroupVersionResource } from '../../../webhooks/admissionReview.js';

/**
 * Who makes the request (kube's `user.Info`, AdmissionReview's `userInfo`).
 *
 * @example
 * ```ts
 * const user: UserInfo = { username: 'alice', groups: ['devs', 'system:authenticated'] };
 * ```
 */
export interface UserInfo {
  readonly username: string;
  readonly uid?: string;
  readonly groups: ReadonlyArray<string>;
  readonly extra?: { readonly [key: string]: ReadonlyArray<string> };
}

/**
 * The attributes of one write, as each admission plugin sees it. A mutating plugin may change
 * `object` in place (or answer with a new one); validating plugins see a copy of the finished object.
 *
 * @example
 * ```ts
 * const isPodCreate = (a: AdmissionAttributes) => a.operation === 'CREATE' && a.resource.group === '' && a.resource.resource === 'pods';
 * ```
 */
export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  /** The kind and resource the plugin is called for (the ones served at the request's version). */
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  /** `''`, `status`, `scale`, `finalize`, ... */
  readonly subResource: string;
  /** What the client called (the same here: no version conversion happens before admission). */
  readonly requestKind: GroupVersionKind;
  readonly requestResource: GroupVersionResource;
  readonly requestSubResource: string;
  /** Empty for a create by `generateName` in the mutating phase; the generated name when validating. */
  readonly name: string;
  /** A Namespace's own name for a Namespace; `''` for other cluster-scoped objects. */
  readonly namespace: string;
  /** The object being written (null on DELETE). */
  object: JsonObject | null;
  /** The stored object (null on CREATE). */
  readonly oldObject: JsonObject | null;
  readonly userInfo: UserInfo;
  readonly dryRun: boolean;
  /** `CreateOptions`, `UpdateOptions` or `DeleteOptions` (meta.k8s.io/v1). */
  readonly options: JsonObject;
}

/**
 * A plugin's answer: allowed (a mutating plugin may give the object to continue with), or denied
 * with the Status the client gets (code 403 and reason `Forbidden` unless given). Warnings become
 * `Warning` headers of the response either way.
 *
 * @example
 * ```ts
 * const deny: AdmissionResponse = { allowed: false, status: { message: 'replicas must be odd', code: 422, reason: 'Invalid' } };
 * ```
 */
export type AdmissionResponse =
  | { readonly allowed: true; readonly object?: JsonObject; readonly warnings?: ReadonlyArray<string> }
  | { readonly allowed: false; readonly status?: Partial<Pick<Status, 'message' | 'reason' | 'code' | 'details'>>; readonly warnings?: ReadonlyArray<string> };

/**
 * A value now or later: in-process plugins answer at once; webhooks (issue 34) answer later.
 *
 * @example
 * ```ts
 * const now: MaybePromise<number> = 1;
 * ```
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Whether a value is a Promise (a thenable).
 *
 * @example
 * ```ts
 * isPromise(Promise.resolve(1)); // true
 * ```
 */
export const isPromise = <T>(v: MaybePromise<T>): v is Promise<T> => typeof (v as { then?: unknown } | null)?.then === 'function';

/**
 * `f(value)` now when `value` is there, or once it is: the pipeline stays synchronous unless a
 * plugin answers later.
 *
 * @example
 * ```ts
 * andThen(1, (n) => n + 1); // 2
 * ```
 */
export const andThen = <T, U>(value: MaybePromise<T>, f: (v: T) => MaybePromise<U>): MaybePromise<U> => (isPromise(value) ? value.then(f) : f(value));

/**
 * An admission plugin: kube's `MutationInterface` (`admit`) and/or `ValidationInterface`
 * (`validate`). `handles` narrows what it is called for (all writes when absent). Answers may be
 * synchronous or Promises; over HTTP the server waits, the in-process data-plane helpers refuse a
 * Promise (`AsyncAdmissionError`). Throwing is a 500 naming the plugin, never a crash.
 *
 * @example
 * ```ts
 * const team: AdmissionPlugin = {
 *   name: 'team-label',
 *   handles: (a) => a.operation === 'CREATE',
 *   admit: (a) => {
 *     const meta = (a.object!.metadata ??= {}) as { labels?: Record<string, string> };
 *     meta.labels = { ...meta.labels, team: 'a' };
 *   },
 * };
 * ```
 */
export interface AdmissionPlugin {
  readonly name: string;
  /** The operations it looks at (all when absent): the chain skips it for the others without building attributes. */
  readonly operations?: ReadonlyArray<AdmissionOperation>;
  handles?(attributes: AdmissionAttributes): boolean;
  /**
   * Mutating: may change `attributes.object` (in place, or by answering `{ allowed: true, object }`),
   * or deny. `context.redefault` re-applies the type's defaults (kube defaults after every patch).
   */
  admit?(attributes: AdmissionAttributes, context?: AdmissionPluginContext): MaybePromise<AdmissionResponse | void>;
  /** Validating: may deny or warn; must not change the object. */
  validate?(attributes: AdmissionAttributes): MaybePromise<AdmissionResponse | void>;
  /**
   * `IfNeeded`: run `admit` once more when a mutating plugin after it changed the object (kube's
   * reinvocationPolicy; one extra round at most). Default `Never`.
   */
  readonly reinvocationPolicy?: 'Never' | 'IfNeeded';
  /**
   * With `IfNeeded`: whether the plugin asks for the extra round itself, though no plugin after it
   * changed the object (a plugin made of several webhooks or policies, one of which changed the
   * object after another that wants reinvocation ran).
   */
  wantsReinvocation?(attributes: AdmissionAttributes): boolean;
}

/**
 * What the chain gives a mutating plugin besides the attributes.
 *
 * @example
 * ```ts
 * const admit = (a: AdmissionAttributes, ctx?: AdmissionPluginContext) => { a.object!.spec = {}; ctx?.redefault?.(a.object!); };
 * ```
 */
export interface AdmissionPluginContext {
  /** Re-applies the type's defaults to an object, in place. */
  readonly redefault?: (obj: JsonObject) => void;
}
