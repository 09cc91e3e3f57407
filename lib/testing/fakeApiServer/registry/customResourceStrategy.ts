import { toType, type ResourceDefinition, type ResourceType } from '../resources.js';
import { scalePathsOf, scaleSubresource } from './scale.js';
import type { ConversionStrategy, SchemaStage, Strategy, Subresource } from './strategy.js';

// The custom-resource strategy (AX pkg/registry/customresource/strategy.go), built from a CRD's
// version or a `registerResource` definition: generation for everything but metadata (and the
// status, with a status subresource), the status dropped on create, no unconditional update, no
// strategic merge patch, the schema stage from the CRD's compiled schema.

const ALWAYS_EXCEPT = ['metadata', 'apiVersion', 'kind'];
const STATUS: Subresource = { verbs: ['get', 'patch', 'update'], writes: [['status']] };
const NONE: { readonly [name: string]: Subresource } = {};

/**
 * A custom resource's strategy for one version.
 *
 * @example
 * ```ts
 * customResourceStrategy({ group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true }).unconditionalUpdate; // false
 * ```
 */
export function customResourceStrategy(
  def: ResourceDefinition,
  schemaOf?: (type: ResourceType) => SchemaStage,
  versioning: { readonly conversion?: ConversionStrategy; readonly deprecationWarning?: string } = {},
): Strategy {
  const type = toType(def, false);
  const status = def.statusSubresource === true;
  const scalePaths = scalePathsOf(def.scaleSubresource);
  const subresources = { ...(status ? { status: STATUS } : NONE), ...(scalePaths ? { scale: scaleSubresource(scalePaths, false) } : {}) };
  return Object.freeze({
    type,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const,
    categories: def.categories ?? [],
    nameRule: 'subdomain' as const,
    generation: { except: status ? [...ALWAYS_EXCEPT, 'status'] : ALWAYS_EXCEPT },
    ...(status ? { status: { onCreate: () => undefined } } : {}),
    resetFields: [],
    subresources,
    deleteAnswer: 'status' as const,
    unconditionalUpdate: false,
    strategicMergePatch: false,
    garbageCollection: 'Background' as const,
    rules: {},
    ...(schemaOf ? { schema: schemaOf(type) } : {}),
    hooks: {},
    ...(versioning.conversion ? { conversion: versioning.conversion } : {}),
    ...(versioning.deprecationWarning ? { deprecationWarning: versioning.deprecationWarning } : {}),
  });
}
