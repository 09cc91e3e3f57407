import type { JsonObject } from '../resources.js';
import type { FieldError } from '../status.js';
import type { WriteOptions } from '../writeOptions.js';

/**
 * The schema stage of a type whose objects have one (custom resources, CustomResourceDefinitions):
 * decoding by the schema (pruning unknown fields as `fieldValidation` says, defaults) and its
 * validation (OpenAPI, CEL, ratcheting on update).
 *
 * @example
 * ```ts
 * const none: SchemaStage = { decode: () => undefined, validate: () => [] };
 * ```
 */
export interface SchemaStage {
  /** Whether a schema is there now (a custom resource's CRD may have none); absent: always. */
  applies?(): boolean;
  decode(obj: JsonObject, options: WriteOptions): void;
  validate(obj: JsonObject, old: JsonObject | undefined): FieldError[];
}
