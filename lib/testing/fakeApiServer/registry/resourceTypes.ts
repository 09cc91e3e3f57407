import type { Resource } from '../../../listwatch/resource.js';
import { RxkubeError } from '../../../errors.js';
import type { ResourceDefinition, ResourceRef, ResourceType } from '../resources.js';
import { failure, StatusError } from '../status.js';
import type { CustomResourceVersioning } from './customResourceDefinitions.js';
import { customResourceStrategy } from './customResourceStrategy.js';
import type { SchemaStage, Strategy } from './strategy.js';

// The served resource types and their strategies (kube's API group installer: one REST storage per
// group, version and resource). Every version of a resource shares one storage, identified by
// `plural.group` (the ResourceType's `id`); objects are stored in the storage version.

const gvrKey = (group: string, version: string, plural: string): string => `${group}/${version}/${plural}`;
const idOf = (ref: ResourceRef): string => (typeof ref === 'string' ? ref : ref.group ? `${ref.plural}.${ref.group}` : ref.plural);

/**
 * The types the server serves, by id (`pods`, `deployments.apps`: the storage version) and by
 * group, version and plural (every served version), each with its strategy.
 *
 * @example
 * ```ts
 * const types = new ResourceTypes(builtInStrategies(builtInTypeRules));
 * types.strategyOf(types.resolve('pods')).deleteAnswer; // 'object'
 * ```
 */
export class ResourceTypes {
  private readonly byId = new Map<string, Strategy>();
  private readonly byGvr = new Map<string, Strategy>();
  private readonly byType = new WeakMap<ResourceType, Strategy>();

  /**
   * `strategies` in storage-version-first order per resource (the first served version of an id
   * is its storage version); `schemaOf` gives custom resources their schema stage.
   */
  constructor(
    strategies: Iterable<Strategy>,
    private readonly schemaOf?: (type: ResourceType) => SchemaStage,
  ) {
    for (const s of strategies) this.serve(s, !this.byId.has(s.type.id));
  }

  /** Serves a strategy's type; `storage`: its version is the one objects are stored in. */
  serve(strategy: Strategy, storage: boolean): void {
    const t = strategy.type;
    this.byGvr.set(gvrKey(t.group, t.version, t.plural), strategy);
    this.byType.set(t, strategy);
    if (storage) this.byId.set(t.id, strategy);
  }

  /**
   * Adds (or replaces) a custom resource from its definition (one version, stored in it). Takes an
   * informer's `Resource` too; without a `kind` it throws, since lists and watch events need one.
   */
  register(def: ResourceDefinition | Resource): ResourceType {
    if (typeof def.kind !== 'string' || def.kind === '') {
      throw new RxkubeError(
        'ResourceDefinitionError',
        `registerResource: ${idOf(def)} has no kind; set kind (e.g. 'Widget'), as the server needs it for objects, lists and watch events`,
      );
    }
    return this.registerVersions([{ ...def, kind: def.kind }], def.version)[0];
  }

  /**
   * Serves a custom resource in every version of `defs` (a CRD's served versions), stored in
   * `storageVersion`; versions no longer in `defs` stop being served. `versioning`: the CRD's
   * conversion and deprecated versions' warnings.
   */
  registerVersions(defs: ReadonlyArray<ResourceDefinition>, storageVersion: string, versioning?: CustomResourceVersioning): ResourceType[] {
    const id = idOf(defs[0]);
    for (const [k, s] of this.byGvr) if (s.type.id === id && !s.type.builtIn) this.byGvr.delete(k);
    this.byId.delete(id);
    const ordered = [...defs].sort((a, b) => (a.version === storageVersion ? -1 : b.version === storageVersion ? 1 : 0));
    return ordered.map((def, i) => {
      const warning = versioning?.deprecationWarnings[def.version];
      const strategy = customResourceStrategy(def, this.schemaOf, { ...(versioning ? { conversion: versioning.conversion } : {}), ...(warning ? { deprecationWarning: warning } : {}) });
      this.serve(strategy, i === 0);
      return strategy.type;
    });
  }

  /** Stops serving a custom resource (its CRD was deleted); built-ins stay. */
  unregister(ref: ResourceRef): void {
    const id = idOf(ref);
    if (this.byId.get(id)?.type.builtIn !== false) return;
    this.byId.delete(id);
    for (const [k, s] of this.byGvr) if (s.type.id === id) this.byGvr.delete(k);
  }

  /** The strategy of every served version of every type. */
  strategies(): Strategy[] {
    return [...this.byGvr.values()];
  }

  /** Every served version of every type. */
  all(): ResourceType[] {
    return [...this.byGvr.values()].map((s) => s.type);
  }

  /** The storage version of every type: one per storage (what the namespace controller empties). */
  stored(): ResourceType[] {
    return [...this.byId.values()].map((s) => s.type);
  }

  /** The type for `group/version` and `plural`, or undefined. */
  find(group: string, version: string, plural: string): ResourceType | undefined {
    return this.byGvr.get(gvrKey(group, version, plural))?.type;
  }

  /** Resolves a user's reference (an id, or a `Resource`: its version when served); throws a 404 Status for an unknown type. */
  resolve(ref: ResourceRef): ResourceType {
    const byVersion = typeof ref === 'string' ? undefined : this.find(ref.group, ref.version, ref.plural);
    const t = byVersion ?? this.byId.get(idOf(ref))?.type;
    if (!t) throw new StatusError(failure(404, 'NotFound', `the server could not find the requested resource (${idOf(ref)})`));
    return t;
  }

  /** The strategy of a served type (of the version it names). */
  strategyOf(type: ResourceType): Strategy {
    const s = this.byType.get(type) ?? this.byGvr.get(gvrKey(type.group, type.version, type.plural));
    if (!s) throw new StatusError(failure(404, 'NotFound', `the server could not find the requested resource (${type.id})`));
    return s;
  }

  /** The type objects of `type`'s resource are stored as (its storage version). */
  storageOf(type: ResourceType): ResourceType {
    return this.byId.get(type.id)?.type ?? type;
  }
}
