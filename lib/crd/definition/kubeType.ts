import { Type, type SchemaOptions, type Static, type TArray, type TSchema, type TUnsafe } from '@sinclair/typebox';
import type { KubeObject } from '../../meta/kubeObject.js';

/**
 * One CEL rule of `x-kubernetes-validations` (apiextensions.k8s.io/v1 `ValidationRule`).
 *
 * @example
 * ```ts
 * const r: ValidationRule = { rule: 'self.min <= self.max', message: 'min must not exceed max', fieldPath: '.min' };
 * ```
 */
export interface ValidationRule {
  /** The CEL expression: `self` is the node's value, `oldSelf` its stored value (a transition rule). */
  readonly rule: string;
  /** What the 422 says when the rule fails (default `failed rule: <rule>`). */
  readonly message?: string;
  /** A CEL expression (string) for the message; `message` is used if it fails. */
  readonly messageExpression?: string;
  /** The 422 cause's reason. Default `FieldValueInvalid`. */
  readonly reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  /** The field the failure is reported at, relative to the node (`.spec.x`). */
  readonly fieldPath?: string;
  /** `oldSelf` is an optional: the rule also runs on create and where there was no old value. */
  readonly optionalOldSelf?: boolean;
}

/**
 * Schema options carrying CEL rules, to spread into any TypeBox type's options:
 * `Type.Object({...}, { ...validations({ rule: 'self.min <= self.max' }) })`.
 *
 * @example
 * ```ts
 * import { Type } from '@sinclair/typebox';
 * const range = Type.Object({ min: Type.Integer(), max: Type.Integer() }, {
 *   ...validations({ rule: 'self.min <= self.max', message: 'min must not exceed max' }),
 * });
 * ```
 */
export function validations(...rules: ValidationRule[]): { readonly 'x-kubernetes-validations': ReadonlyArray<ValidationRule> } {
  return { 'x-kubernetes-validations': rules };
}

/**
 * Options of the list helpers: a list's own checks and rules.
 *
 * @example
 * ```ts
 * const o: ListOptions = { maxItems: 16, description: 'The ports, by name.' };
 * ```
 */
export type ListOptions = SchemaOptions & { readonly minItems?: number; readonly maxItems?: number };

/**
 * TypeBox types for what a CRD schema says and JSON Schema has no word for (the
 * `x-kubernetes-*` extensions), each with its TypeScript type. TypeBox's own `Type.*` covers the
 * rest: `Type.Integer({ format: 'int32', minimum: 0 })`, `Type.String({ pattern, maxLength })`,
 * `Type.Object`, `Type.Optional`, `Type.Array`, `Type.Boolean`, `Type.Number`; unions of literals
 * become an `enum`, `Type.Union([T, Type.Null()])` becomes `nullable`, `Type.Record(Type.String(), V)`
 * becomes a map.
 *
 * @example
 * ```ts
 * import { Type } from '@sinclair/typebox';
 * const spec = Type.Object({
 *   mode: KubeType.Enum(['fast', 'slow']),
 *   size: KubeType.IntOrString(),
 *   ports: KubeType.ListMap(Type.Object({ name: Type.String(), port: Type.Integer() }), ['name']),
 *   labels: KubeType.Map(Type.String()),
 *   template: KubeType.EmbeddedResource(),
 * });
 * ```
 */
export const KubeType = {
  /** A string from a fixed set (`enum`), typed as the union of its values. */
  Enum<const V extends readonly [string, ...string[]]>(values: V, options: SchemaOptions = {}): TUnsafe<V[number]> {
    return Type.Unsafe<V[number]>({ ...options, type: 'string', enum: [...values] });
  },
  /** An integer or a string (`x-kubernetes-int-or-string`), as a port name or number, or `25%`. */
  IntOrString(options: SchemaOptions = {}): TUnsafe<number | string> {
    return Type.Unsafe<number | string>({ ...options, 'x-kubernetes-int-or-string': true });
  },
  /** A quantity (`500m`, `1Gi`, `2`): an int-or-string, as kube's `resource.Quantity`. */
  Quantity(options: SchemaOptions = {}): TUnsafe<number | string> {
    return Type.Unsafe<number | string>({ ...options, 'x-kubernetes-int-or-string': true, pattern: '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$' });
  },
  /** An RFC 3339 timestamp, as JSON carries it: a string. */
  DateTime(options: SchemaOptions = {}): TUnsafe<string> {
    return Type.Unsafe<string>({ ...options, type: 'string', format: 'date-time' });
  },
  /** `T` or `null` (`nullable: true`): a null the server keeps instead of pruning. */
  Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
    return Type.Unsafe<Static<T> | null>({ ...schema, nullable: true });
  },
  /** A map from string keys to `V` (`additionalProperties`). */
  Map<V extends TSchema>(values: V, options: SchemaOptions = {}): TUnsafe<{ [key: string]: Static<V> }> {
    return Type.Unsafe<{ [key: string]: Static<V> }>({ ...options, type: 'object', additionalProperties: values });
  },
  /**
   * A list merged by keys (`x-kubernetes-list-type: map`): server-side apply and strategic merges
   * treat items with the same keys as one. The keys must be required properties of the item (or
   * have defaults): kube refuses the CRD otherwise, and so does the generator.
   */
  ListMap<I extends TSchema>(items: I, keys: ReadonlyArray<keyof Static<I> & string>, options: ListOptions = {}): TArray<I> {
    return Type.Array(items, { ...options, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': [...keys] });
  },
  /** A list of unique scalars merged as a set (`x-kubernetes-list-type: set`). */
  ListSet<I extends TSchema>(items: I, options: ListOptions = {}): TArray<I> {
    return Type.Array(items, { ...options, 'x-kubernetes-list-type': 'set' });
  },
  /** A list replaced whole by every write (`x-kubernetes-list-type: atomic`). */
  AtomicList<I extends TSchema>(items: I, options: ListOptions = {}): TArray<I> {
    return Type.Array(items, { ...options, 'x-kubernetes-list-type': 'atomic' });
  },
  /** A whole Kubernetes object inside this one (`x-kubernetes-embedded-resource`): apiVersion, kind, metadata, the rest kept. */
  EmbeddedResource(options: SchemaOptions = {}): TUnsafe<KubeObject & { [key: string]: unknown }> {
    return Type.Unsafe<KubeObject & { [key: string]: unknown }>({ ...options, type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true });
  },
  /** An object whose fields the server keeps as sent, unchecked (`x-kubernetes-preserve-unknown-fields`). */
  PreserveUnknownFields(options: SchemaOptions = {}): TUnsafe<{ [key: string]: unknown }> {
    return Type.Unsafe<{ [key: string]: unknown }>({ ...options, type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  },
} as const;
