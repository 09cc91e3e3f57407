// The per-request options of a write that the pipeline's stages read (the query's
// `fieldValidation`, the patch type, the response's warnings), shared by the registry and the
// CRD schema stage.

/**
 * The patch types of the `Content-Type` header of a PATCH (json-patch, merge-patch,
 * strategic-merge-patch, apply-patch).
 *
 * @example
 * ```ts
 * api.patch('pods', 'ns', 'a', [{ op: 'remove', path: '/metadata/labels/x' }], 'json' satisfies PatchType);
 * ```
 */
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

/**
 * The `fieldValidation` query parameter of a write: what to do with fields the schema does not
 * know. The server's default (no parameter) is `Warn`.
 *
 * @example
 * ```ts
 * const mode: FieldValidation = 'Strict';
 * ```
 */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/**
 * Per-request options of a write that admission reads.
 *
 * @example
 * ```ts
 * const warnings: string[] = [];
 * registry.create(type, 'default', body, { fieldValidation: 'Warn', warnings });
 * ```
 */
export interface WriteOptions {
  readonly fieldValidation?: FieldValidation;
  /** Collects the `Warning` header texts of the response (`unknown field "spec.foo"`). */
  readonly warnings?: string[];
  /** Set when the write is a PATCH (strict decoding errors are worded per patch type). */
  readonly patchType?: PatchType;
  /** Who writes, for an HTTP request (the registry's write guard checks RBAC escalation); unset in process. */
  readonly user?: WriteUser;
}

/**
 * The user of a write, as authorization sees it (rbac/userInfo.ts's UserInfo).
 *
 * @example
 * ```ts
 * const user: WriteUser = { name: 'alice', groups: ['system:authenticated'] };
 * ```
 */
export interface WriteUser {
  readonly name: string;
  readonly uid?: string;
  readonly groups: ReadonlyArray<string>;
  readonly extra?: { readonly [key: string]: ReadonlyArray<string> };
}
