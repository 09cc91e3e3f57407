import { ApiStatusError, type Status } from '../errors.js';

/**
 * One field of an {@link ApplyConflictError}: the field (`.spec.replicas`,
 * `.spec.containers[name="web"].image`) and who owns it.
 *
 * @example
 * ```ts
 * const c: FieldConflict = { field: '.spec.replicas', manager: 'hpa', message: 'conflict with "hpa"' };
 * ```
 */
export interface FieldConflict {
  /** The field's path, as the API server prints it. */
  readonly field: string;
  /** The manager that owns it (the name only: no operation or apiVersion). */
  readonly manager: string;
  /** The owner's operation: `Update` when the server named an apiVersion (`"m" using apps/v1`), else `Apply`. */
  readonly operation: 'Apply' | 'Update';
  /** The owner's subresource (`status`), when it wrote through one. */
  readonly subresource?: string;
  /** The cause's message, e.g. `conflict with "kubectl-edit" using apps/v1`. */
  readonly message: string;
}

/** `conflict with "m"`, `conflict with "m" with subresource "status" using v1`. */
const CAUSE = /^conflict with ("(?:[^"\\]|\\.)*")(?: with subresource ("(?:[^"\\]|\\.)*"))?( using \S+)?/;

/** The conflicts in a 409's `details.causes` (`FieldManagerConflict` causes only). */
export function fieldConflictsOf(status: Status): FieldConflict[] {
  const out: FieldConflict[] = [];
  for (const cause of status.details?.causes ?? []) {
    if (cause.reason !== 'FieldManagerConflict') continue;
    const message = cause.message ?? '';
    const m = CAUSE.exec(message);
    let manager = message;
    let subresource: string | undefined;
    try {
      if (m) manager = JSON.parse(m[1]) as string;
      if (m?.[2]) subresource = JSON.parse(m[2]) as string;
    } catch {
      // not kube's wording: the message stands for the manager
    }
    out.push({ field: cause.field ?? '', manager, operation: m?.[3] ? 'Update' : 'Apply', ...(subresource ? { subresource } : {}), message });
  }
  return out;
}

/**
 * A server-side {@link apply} changed fields that other field managers own, and `force` was not
 * set: the API server's 409 with one `FieldManagerConflict` cause per field, parsed. It is an
 * `ApiStatusError` (statusCode 409, reason `Conflict`), so code that handles those still works.
 * Resolve it as kube's docs say: drop the fields from your configuration (let the other manager
 * own them), or apply with `force: true` to take them (a controller that is the fields' rightful
 * owner usually should).
 *
 * @example
 * ```ts
 * try {
 *   await apply(kc, deployments, config, { fieldManager: 'my-controller' });
 * } catch (e) {
 *   if (e instanceof ApplyConflictError) console.log(e.conflicts.map((c) => `${c.field} is ${c.manager}'s`));
 * }
 * ```
 */
export class ApplyConflictError extends ApiStatusError {
  /** Every conflicting field with its owner. */
  readonly conflicts: ReadonlyArray<FieldConflict>;

  constructor(status: Status, options?: { context?: string; cause?: unknown }) {
    super(status, options);
    this.name = 'ApplyConflictError';
    this.conflicts = fieldConflictsOf(status);
  }

  /** The managers that own conflicting fields, each once, sorted. */
  get managers(): string[] {
    return [...new Set(this.conflicts.map((c) => c.manager))].sort();
  }
}
