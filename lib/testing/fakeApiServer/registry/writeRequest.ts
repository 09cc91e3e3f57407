import { andThen, type AdmissionAttributes, type AdmissionOperation, type MaybePromise, type UserInfo } from '../admission/attributes.js';
import type { FieldOwner } from '../fields/fieldManager.js';
import type { JsonObject } from '../resources.js';
import type { WriteOptions } from '../writeOptions.js';
import type { Strategy } from './strategy.js';

// What one write request carries through the pipeline besides its object: who makes it, with
// which options, and whether it is a dry run; and the admission attributes built from it.

/**
 * The user of the writes made in process (`api.create`, ..., the server's own controllers):
 * a cluster admin.
 *
 * @example
 * ```ts
 * IN_PROCESS_USER.username; // 'rxkube-testing'
 * ```
 */
export const IN_PROCESS_USER: UserInfo = Object.freeze({ username: 'rxkube-testing', groups: Object.freeze(['system:masters', 'system:authenticated']) });

/**
 * The options of one write (create, update, patch, apply, delete) as the pipeline reads them.
 *
 * @example
 * ```ts
 * registry.create(type, 'ns', body, { dryRun: true, owner: { manager: 'kubectl' }, warnings: [] });
 * ```
 */
export interface WriteRequestOptions extends WriteOptions {
  /** Who the write is tracked as in managedFields (default: an Update by `rxkube-testing`). */
  readonly owner?: FieldOwner;
  /** `dryRun=All`: every stage runs, nothing is stored, no event, no resourceVersion taken. */
  readonly dryRun?: boolean;
  /** Who makes the request, for admission (default {@link IN_PROCESS_USER}). */
  readonly user?: UserInfo;
  /** Create: keep the status given (the data plane's seeding) instead of the strategy's reset. */
  readonly withStatus?: boolean;
  /** The caller cannot wait (the in-process data plane): an asynchronous admission answer is refused. */
  readonly sync?: boolean;
  /**
   * A PATCH that creates (an apply to a missing object) checks `create` authorization too: this
   * throws the 403 when the requester may not (auth/authorizer.ts `createOnUpdateCheck`).
   */
  readonly authorizeCreate?: () => void;
}

const OPTIONS_KIND: { readonly [op in AdmissionOperation]: string } = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions', CONNECT: 'ConnectOptions' };

/**
 * The admission attributes of a write of `strategy`'s type (ADMISSION.md §2).
 *
 * @example
 * ```ts
 * const a = admissionAttributes(strategy, 'CREATE', 'ns', '', undefined, obj, null, options);
 * ```
 */
export function admissionAttributes(
  strategy: Strategy,
  operation: AdmissionOperation,
  namespace: string,
  name: string,
  subresource: string | undefined,
  object: JsonObject | null,
  oldObject: JsonObject | null,
  options: WriteRequestOptions,
  extraOptions: JsonObject = {},
): AdmissionAttributes {
  const { group, version, kind, plural, namespaced } = strategy.type;
  // A subresource with an object of its own (Scale) is admitted as that kind, with that object.
  const sub = subresource ? strategy.subresources[subresource] : undefined;
  const form = sub?.form;
  const gvk = form && sub.kind ? sub.kind : { group, version, kind };
  const gvr = { group, version, resource: plural };
  const manager = options.owner && options.owner !== 'preset' ? options.owner.manager : undefined;
  return {
    operation,
    kind: gvk,
    resource: gvr,
    subResource: subresource ?? '',
    requestKind: gvk,
    requestResource: gvr,
    requestSubResource: subresource ?? '',
    name,
    // A Namespace's attributes carry its own name as namespace (kube's admission for namespaces).
    namespace: namespaced ? namespace : group === '' && plural === 'namespaces' ? name : '',
    object: form && object ? form.read(object) : object,
    oldObject: form && oldObject ? form.read(oldObject) : oldObject,
    userInfo: options.user ?? IN_PROCESS_USER,
    dryRun: options.dryRun === true,
    options: {
      kind: OPTIONS_KIND[operation],
      apiVersion: 'meta.k8s.io/v1',
      ...(options.dryRun ? { dryRun: ['All'] } : {}),
      ...(manager !== undefined && operation !== 'DELETE' ? { fieldManager: manager } : {}),
      ...extraOptions,
    },
  };
}

/**
 * A result now, for callers that cannot wait: with `sync` set the admission chain never answers
 * later, so a Promise here is a bug, said as such.
 *
 * @example
 * ```ts
 * const stored = now(registry.create(type, ns, body, { sync: true }));
 * ```
 */
export function now<T>(value: MaybePromise<T>): T {
  if (typeof (value as { then?: unknown } | null)?.then === 'function') {
    (value as Promise<T>).catch(() => undefined);
    throw new Error('a synchronous write answered later: the admission chain must refuse asynchronous answers when sync is set');
  }
  return value as T;
}

/**
 * Runs `f` for each item in order, each after the previous one's result (synchronous while they are).
 *
 * @example
 * ```ts
 * const results = inSequence(victims, (v) => registry.delete(type, v.namespace, v.name));
 * ```
 */
export function inSequence<T, U>(items: ReadonlyArray<T>, f: (item: T) => MaybePromise<U>): MaybePromise<U[]> {
  const out: U[] = [];
  const step = (i: number): MaybePromise<U[]> => {
    for (; i < items.length; i++) {
      const r = f(items[i]);
      if (typeof (r as { then?: unknown } | null)?.then === 'function') {
        const next = i + 1;
        return andThen(r, (u) => {
          out.push(u);
          return step(next);
        });
      }
      out.push(r as U);
    }
    return out;
  };
  return step(0);
}
