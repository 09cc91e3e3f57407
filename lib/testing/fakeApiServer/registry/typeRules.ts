import type { JsonObject } from '../resources.js';
import type { FieldError } from '../status.js';

// The contract between the write pipeline (which runs these at kube's stages, for every verb,
// dry run included) and the per-type rules in ./rules/ (kube's defaults.go, validation and
// immutability, read from kubernetes/kubernetes). Rules are pure functions of the objects.

/**
 * Allocations a type's create or update may need (kube's `BeginCreate`/`BeginUpdate` hooks of
 * the Service registry): cluster IPs from the service CIDR and node ports from their range. In a
 * dry run they answer an address without reserving it.
 *
 * @example
 * ```ts
 * const ip = allocators.clusterIP('IPv4'); // '10.96.0.12'
 * ```
 */
export interface Allocators {
  /** A free cluster IP of the family, or undefined when the range is full. */
  clusterIP(family: 'IPv4' | 'IPv6'): string | undefined;
  /** Reserves a requested cluster IP; false when it is taken or outside the range. */
  reserveClusterIP(ip: string): boolean;
  /** A free node port (30000-32767), or undefined when the range is full. */
  nodePort(): number | undefined;
  /** Reserves a requested node port; false when it is taken or outside the range. */
  reserveNodePort(port: number): boolean;
}

/**
 * One built-in type's rules, as kube's registry strategy and API defaulting apply them. Every
 * member is optional: a type without rules is stored as its metadata checks allow.
 *
 * @example
 * ```ts
 * const configMapRules: TypeRules = {
 *   validateUpdate: (obj, old) => (old.immutable === true && JSON.stringify(obj.data) !== JSON.stringify(old.data)
 *     ? [{ field: 'data', type: 'FieldValueForbidden', body: 'Forbidden: field is immutable when `immutable` is set' }]
 *     : []),
 * };
 * ```
 */
export interface TypeRules {
  /**
   * kube's `SetDefaults_*` for the type and every nested type it holds (pod templates included),
   * in place, on the object in its request version. Runs on create and update (after a patch is
   * applied), after every mutating admission step, and in dry run. Also the place for what kube
   * does in conversion (Secret `stringData` merged into `data`).
   */
  readonly defaults?: (obj: JsonObject) => void;
  /** kube's `Validate<Kind>` beyond ObjectMeta (the pipeline checks metadata): every cause, kube's words. */
  readonly validateCreate?: (obj: JsonObject) => FieldError[];
  /** kube's `Validate<Kind>Update`, immutability included; both objects defaulted. */
  readonly validateUpdate?: (obj: JsonObject, old: JsonObject) => FieldError[];
  /** kube's `WarningsOnCreate`/`WarningsOnUpdate` (each a Warning header). */
  readonly warnings?: (obj: JsonObject, old: JsonObject | undefined) => string[];
  /**
   * kube's allocation hooks (Service cluster IPs and node ports): fills what is unset, reserves
   * what is asked for; returns the causes of a 422 (an address taken or out of range).
   */
  readonly allocate?: (obj: JsonObject, old: JsonObject | undefined, allocators: Allocators) => FieldError[];
}
