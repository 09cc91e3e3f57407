import type { Static, TSchema } from '@sinclair/typebox';
import { compileCrdSchemas, type CompiledSchema } from '../../testing/fakeApiServer/schema/crdSchemas.js';
import type { JsonObject } from '../../testing/fakeApiServer/resources.js';
import type { KubeObject } from '../../meta/kubeObject.js';
import { deepFreeze } from '../../store/deepFreeze.js';
import type {
  CustomResource,
  CustomResourceDefinitionObject,
  CustomResourceOptions,
  DefinedCustomResource,
  ObjectProblem,
  VersionDefinition,
  VersionedResource,
} from './definitionTypes.js';
import { generateCrd, type ResolvedDefinition } from './generateCrd.js';
import { objectProblems } from './validateCustomResource.js';

/** Marks what {@link defineCustomResource} made, for the `rxkube-crd` bin to find among a module's exports. */
const customResourceBrand: unique symbol = Symbol.for('rxkube.customResource');

function resolve(o: CustomResourceOptions<TSchema, TSchema | undefined, { readonly [name: string]: VersionDefinition }>): ResolvedDefinition {
  const lower = o.kind.toLowerCase();
  const main: VersionDefinition = o;
  return {
    group: o.group,
    kind: o.kind,
    plural: o.plural ?? `${lower}s`,
    singular: o.singular ?? lower,
    listKind: o.listKind ?? `${o.kind}List`,
    shortNames: o.shortNames ?? [],
    categories: o.categories ?? [],
    scope: o.scope ?? 'Namespaced',
    storageVersion: o.storageVersion ?? o.version,
    versions: [[o.version, main], ...Object.entries(o.otherVersions ?? {})],
    ...(o.conversion ? { conversion: o.conversion } : {}),
    ...(o.labels ? { labels: o.labels } : {}),
    ...(o.annotations ? { annotations: o.annotations } : {}),
  };
}

/**
 * Defines a custom resource once, in TypeScript, with TypeBox schemas: the object type (spec,
 * status and the full ObjectMeta), the CustomResourceDefinition (`crd()`, checked at generation
 * with the fake API server's own CRD validation, so a rule kube would refuse fails in your build),
 * the run-time checks of objects (`validate`), and the resource informers and controllers address
 * (`factory.informerFor(backups)` is an `Informer<Backup>`).
 *
 * @example
 * ```ts
 * import { Type } from '@sinclair/typebox';
 * export const backups = defineCustomResource({
 *   group: 'example.com',
 *   kind: 'Backup',
 *   version: 'v1',
 *   spec: Type.Object({ schedule: Type.String({ description: 'A cron schedule.' }) }),
 *   status: Type.Object({ configMap: Type.Optional(Type.String()), observedGeneration: Type.Optional(Type.Integer()) }),
 *   printerColumns: [{ name: 'Schedule', type: 'string', jsonPath: '.spec.schedule' }],
 * });
 * export type Backup = ObjectOf<typeof backups>;
 * ```
 */
export function defineCustomResource<
  Spec extends TSchema,
  Status extends TSchema | undefined = undefined,
  const Others extends { readonly [name: string]: VersionDefinition } = { readonly [name: string]: never },
>(options: CustomResourceOptions<Spec, Status, Others>): DefinedCustomResource<CustomResource<Static<Spec>, Status extends TSchema ? Static<Status> : undefined>, Others> {
  type T = CustomResource<Static<Spec>, Status extends TSchema ? Static<Status> : undefined>;
  const d = resolve(options as unknown as CustomResourceOptions<TSchema, TSchema | undefined, { readonly [name: string]: VersionDefinition }>);
  const namespaced = d.scope === 'Namespaced';
  const apiVersionOf = (version: string) => `${d.group}/${version}`;
  const versionResource = (version: string): VersionedResource<KubeObject> =>
    Object.freeze({ group: d.group, version, plural: d.plural, kind: d.kind, namespaced, apiVersion: apiVersionOf(version) });
  let crd: CustomResourceDefinitionObject | undefined;
  let schemas: ReadonlyMap<string, CompiledSchema> | undefined;
  const generated = (): CustomResourceDefinitionObject => (crd ??= deepFreeze(generateCrd(d)));
  const schemaOf = (version: string): CompiledSchema | undefined => {
    schemas ??= compileCrdSchemas(generated() as unknown as JsonObject).versions;
    return schemas.get(version);
  };
  const defined = {
    ...versionResource(options.version),
    name: `${d.plural}.${d.group}`,
    singular: d.singular,
    listKind: d.listKind,
    shortNames: d.shortNames,
    categories: d.categories,
    versions: Object.fromEntries(d.versions.map(([name]) => [name, versionResource(name)])),
    crd: generated,
    validate(object: unknown, old?: unknown): ReadonlyArray<ObjectProblem> {
      const apiVersion = typeof object === 'object' && object !== null ? (object as { apiVersion?: unknown }).apiVersion : undefined;
      const version = typeof apiVersion === 'string' && apiVersion.startsWith(`${d.group}/`) ? apiVersion.slice(d.group.length + 1) : options.version;
      const schema = schemaOf(version);
      if (!schema) return [{ field: 'apiVersion', reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(apiVersion)}: supported values: ${d.versions.map(([n]) => JSON.stringify(apiVersionOf(n))).join(', ')}` }];
      return objectProblems(schema, object, old);
    },
    object: (body: Omit<T, 'apiVersion' | 'kind'>): T => ({ apiVersion: apiVersionOf(options.version), kind: d.kind, ...body }) as T,
    [customResourceBrand]: true,
  };
  return Object.freeze(defined) as unknown as DefinedCustomResource<T, Others>;
}

/**
 * Whether `value` is a custom resource made by {@link defineCustomResource} (what the
 * `rxkube-crd` bin looks for among a module's exports).
 *
 * @example
 * ```ts
 * const defs = Object.values(await import('./backup.js')).filter(isCustomResourceDefinition);
 * ```
 */
export function isCustomResourceDefinition(value: unknown): value is DefinedCustomResource<KubeObject> {
  return typeof value === 'object' && value !== null && (value as { [customResourceBrand]?: unknown })[customResourceBrand] === true;
}
