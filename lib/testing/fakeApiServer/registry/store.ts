import { andThen, type AdmissionAttributes, type MaybePromise } from '../admission/attributes.js';
import type { AdmissionChain, AdmissionContext } from '../admission/chain.js';
import { DATA_PLANE_MANAGER, FieldManager } from '../fields/fieldManager.js';
import type { Random } from '../random.js';
import type { JsonObject, ResourceType } from '../resources.js';
import { alreadyExists, badRequest, conflict, failure, notFound, qualifiedResource, StatusError, unsupportedMediaType } from '../status.js';
import type { Selectors } from '../storage/selectors.js';
import type { Storage } from '../storage/storage.js';
import { objectKey, parseStored, sameAs, serialize, storedObject, type StoredObject } from '../storage/storedObject.js';
import { Allocations } from './allocations.js';
import { customResourceDefinitionType } from './customResourceDefinitions.js';
import { decodeBody, checkCreatable } from './decode.js';
import { finalizersOnDelete, holdsDeletion, validateDeleteOptions, type DeleteOptions } from './deletion.js';
import { generateName } from './names.js';
import { applyPatch, type PatchType } from './patch.js';
import { keepSystemMetadata, mergeForUpdate, prepareForCreate } from './prepare.js';
import type { ResourceTypes } from './resourceTypes.js';
import { sameContent } from './sameContent.js';
import { replaceStatus } from './statusWrite.js';
import type { Strategy, SubresourceForm } from './strategy.js';
import { createErrors, invalidObject, updateErrors } from './validate.js';
import { admissionAttributes, inSequence, type WriteRequestOptions } from './writeRequest.js';

export type { DeleteOptions } from './deletion.js';

/**
 * Options of a create through the data plane.
 *
 * @example
 * ```ts
 * api.create('pods', runningPod, { withStatus: true });
 * ```
 */
export interface CreateOptions {
  /**
   * Keep the `status` given instead of the one the server sets on create (as if the status had been
   * written through `/status` right after): for seeding objects some controller or kubelet would
   * have reported on. Default false (a create drops or resets the status, as kube does).
   */
  readonly withStatus?: boolean;
  /** Who creates it, for managedFields (default: an Update by `rxkube-testing`); `'preset'` keeps the managedFields given. */
  readonly owner?: WriteRequestOptions['owner'];
}

/**
 * Who a PATCH is by: `manager` (the `fieldManager` or the user agent's), and apply's `force`.
 *
 * @example
 * ```ts
 * registry.patch(type, 'ns', 'a', 'apply', body, undefined, { manager: 'my-controller', force: true });
 * ```
 */
export interface PatchWriter {
  readonly manager?: string;
  readonly force?: boolean;
}

/** What the store needs from the server. */
export interface StoreDependencies {
  readonly storage: Storage;
  readonly types: ResourceTypes;
  readonly rng: Random;
  readonly now: () => number;
  readonly admission: AdmissionChain;
}

type Meta = { name?: string; generateName?: string; namespace?: string; resourceVersion?: string; uid?: string; deletionTimestamp?: string; deletionGracePeriodSeconds?: number; generation?: number; finalizers?: string[]; managedFields?: unknown };
const metaOf = (obj: JsonObject): Meta => obj.metadata as Meta;

/** An object the store did not store (a dry run's answer): at `rv`, or without a resourceVersion. */
function unstored(type: ResourceType, obj: JsonObject, rv: number | undefined): StoredObject {
  const s = storedObject(type, serialize(obj), rv ?? 0);
  if (rv !== undefined) return s;
  delete metaOf(obj).resourceVersion;
  return { ...s, json: JSON.stringify(obj) };
}

/**
 * kube's generic registry store (AS `registry/generic/registry/store.go`), the one path every write
 * takes, HTTP or in process (PIPELINE.md §1; docs/architecture.md "One write path"):
 *
 * create: decode -> defaults -> mutating admission -> name, uid, allocation -> strategy (status,
 *         generation) -> validation (metadata, the type's rules, CRD schema) -> validating
 *         admission -> storage (409 AlreadyExists) -> watch
 * update: decode -> live object, preconditions (resourceVersion, uid) -> defaults -> mutating
 *         admission -> strategy (what the main resource or the subresource keeps, generation) ->
 *         validation and immutability -> validating admission -> managedFields, no-op detection ->
 *         storage -> watch
 * patch / apply: applied to the live object, then the update path (apply: create when missing)
 * delete: preconditions -> admission -> finalizers or removal
 *
 * A dry run takes every stage but storage. The type's differences come from its strategy entry.
 */
export class Registry {
  /** Called after each stored write (the fake's controllers in `'immediate'` mode settle there). */
  afterWrite: (() => void) | undefined;
  private readonly fields: FieldManager;
  private readonly allocations: Allocations;
  private lastSecond = Number.NaN;
  private lastTimestamp = '';

  constructor(private readonly deps: StoreDependencies) {
    const { storage, types } = deps;
    this.fields = new FieldManager({
      crdOf: (type) => (type.builtIn ? undefined : storage.get(customResourceDefinitionType, `${type.plural}.${type.group}`)),
      hasStatusSubresource: (type) => types.strategyOf(type).status !== undefined,
      timestamp: () => this.timestamp(),
    });
    this.allocations = new Allocations(storage, () => types.find('', 'v1', 'services'));
  }

  /** RFC 3339 in whole seconds, as kube's metav1.Time: formatted once per second, not per write. */
  timestamp(): string {
    const second = Math.floor(this.deps.now() / 1000);
    if (second !== this.lastSecond) {
      this.lastSecond = second;
      this.lastTimestamp = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    }
    return this.lastTimestamp;
  }

  /** The type `type`'s objects are stored as (its resource's storage version). */
  private storageOf(type: ResourceType): ResourceType {
    return this.deps.types.storageOf(type);
  }

  /** A stored object (storage form) as the client sees it at `type`'s version: what patches apply to. */
  private inVersion(type: ResourceType, obj: JsonObject): JsonObject {
    obj.apiVersion = type.apiVersion;
    return obj;
  }

  get(type: ResourceType, namespace: string, name: string): StoredObject {
    const s = this.deps.storage.get(type, objectKey(type.namespaced ? namespace : '', name));
    if (!s) throw notFound(type, name);
    return s;
  }

  private context(strategy: Strategy, options: WriteRequestOptions): AdmissionContext {
    return { sync: options.sync === true, warnings: options.warnings, redefault: strategy.rules.defaults };
  }

  /** POST: 201 with the stored object (or, in a dry run, the object that would be). `body` is consumed. */
  create(type: ResourceType, namespace: string, body: unknown, options: WriteRequestOptions = {}): MaybePromise<StoredObject> {
    const strategy = this.deps.types.strategyOf(type);
    if (type.namespaced && !namespace) throw notFound(type, '');
    const obj = decodeBody(strategy, namespace, body, this.storageOf(type).apiVersion);
    checkCreatable(obj);
    strategy.schema?.decode(obj, options);
    strategy.rules.defaults?.(obj);
    const a = admissionAttributes(strategy, 'CREATE', namespace, metaOf(obj).name ?? '', undefined, obj, null, options);
    return andThen(this.deps.admission.admit(a, this.context(strategy, options)), () => this.createAdmitted(strategy, namespace, a, options));
  }

  private createAdmitted(strategy: Strategy, namespace: string, a: AdmissionAttributes, options: WriteRequestOptions): MaybePromise<StoredObject> {
    const { type } = strategy;
    const obj = a.object!;
    const meta = metaOf(obj);
    const key = (name: string) => objectKey(type.namespaced ? namespace : '', name);
    const generated = !meta.name && typeof meta.generateName === 'string' && meta.generateName !== '';
    if (generated) {
      const name = generateName(meta.generateName!, this.deps.rng, (n) => this.deps.storage.get(type, key(n)) !== undefined);
      if (name === undefined) throw generateNameConflict(type, `${meta.generateName!.slice(0, 58)}`);
      meta.name = name;
    }
    meta.uid = this.deps.rng.uuid();
    (meta as JsonObject).creationTimestamp = this.timestamp();
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    const errors = strategy.rules.allocate?.(obj, undefined, this.allocations.begin()) ?? [];
    prepareForCreate(strategy, obj, options.withStatus === true);
    errors.push(...createErrors(strategy, obj, generated));
    const refusal = invalidObject(strategy, meta.name!, errors);
    if (refusal) throw refusal;
    options.authorizeCreate?.(); // an apply that creates: kube's create-on-update authorization
    options.warnings?.push(...(strategy.rules.warnings?.(obj, undefined) ?? []));
    const validated = this.deps.admission.wants('validate', 'CREATE') ? this.deps.admission.validate({ ...a, name: meta.name!, object: obj }, this.context(strategy, options)) : undefined;
    return andThen(validated, () => {
      const existing = this.deps.storage.get(type, key(meta.name!));
      if (existing) throw alreadyExists(type, meta.name!, existing.deleting);
      this.fields.record(type, undefined, obj, options.owner ?? { manager: DATA_PLANE_MANAGER });
      if (options.dryRun) return unstored(type, obj, undefined);
      return this.written(strategy, this.deps.storage.put(this.storageOf(type), obj));
    });
  }

  /** After a stored write: the other half of a shared storage (Events), and the controllers' turn. */
  private written(strategy: Strategy, s: StoredObject): StoredObject {
    if (strategy.mirror && s.rv === this.deps.storage.resourceVersion) {
      const other = this.deps.types.resolve(strategy.mirror.resource);
      const converted = strategy.mirror.convert(parseStored(s));
      const gone = this.deps.storage.get(strategy.type, s.key) === undefined;
      this.deps.storage.mirror(other, s.key, gone ? undefined : converted, converted);
    }
    this.afterWrite?.();
    return s;
  }

  /** PUT (or the write after a PATCH): preconditions, kept system fields, no-op detection. `body` is consumed. */
  update(type: ResourceType, namespace: string, name: string, body: unknown, subresource?: string, options: WriteRequestOptions = {}): MaybePromise<StoredObject> {
    const strategy = this.deps.types.strategyOf(type);
    const form = formOf(strategy, subresource);
    // A subresource with an object of its own (Scale) is written into its parent, which takes the rest of the path.
    if (form) body = form.write(this.inVersion(type, parseStored(this.get(type, namespace, name))), viewNamed(body, name));
    const obj = decodeBody(strategy, namespace, body, this.storageOf(type).apiVersion);
    const meta = metaOf(obj);
    if (meta.name !== undefined && meta.name !== name) throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
    meta.name = name;
    const old = this.get(type, namespace, name);
    this.checkPreconditions(strategy, old, meta);
    const fast = this.statusFastPath(strategy, old, obj, subresource, options);
    if (fast) return fast;
    const prev = parseStored(old);
    strategy.schema?.decode(obj, options);
    strategy.rules.defaults?.(obj);
    // Attributes are built only for a phase some plugin looks at (updates: none by default).
    const attributes = (object: JsonObject) => admissionAttributes(strategy, 'UPDATE', namespace, name, subresource, object, prev, options);
    if (!this.deps.admission.wants('admit', 'UPDATE')) return this.updateAdmitted(strategy, old, prev, obj, attributes, subresource, options);
    const a = attributes(obj);
    // Admission saw the subresource's object (a Scale): what it made of it goes back into the parent.
    const admitted = () => (form ? form.write(obj, a.object!) : a.object!);
    return andThen(this.deps.admission.admit(a, this.context(strategy, options)), () => this.updateAdmitted(strategy, old, prev, admitted(), attributes, subresource, options));
  }

  /** 409 on a stale resourceVersion or another uid; 422 without a resourceVersion where the type needs one. */
  private checkPreconditions(strategy: Strategy, old: StoredObject, meta: Meta): void {
    const { type } = strategy;
    if (!meta.resourceVersion) {
      if (!strategy.unconditionalUpdate) {
        throw invalidObject(strategy, old.name, [{ field: 'metadata.resourceVersion', type: 'FieldValueInvalid', body: 'Invalid value: 0x0: must be specified for an update' }])!;
      }
    } else if (meta.resourceVersion !== String(old.rv)) throw conflict(type, old.name);
    if (meta.uid && meta.uid !== old.uid) throw conflict(type, old.name, preconditionText('UID', meta.uid, old.uid, type, old));
  }

  /**
   * A `/status` write that only replaces the status takes the splice (statusWrite.ts): nothing
   * parsed but the statuses. Only where no stage needs the whole object: no schema, no user
   * admission plugin, no dry run, not being deleted.
   */
  private statusFastPath(strategy: Strategy, old: StoredObject, obj: JsonObject, subresource: string | undefined, options: WriteRequestOptions): StoredObject | undefined {
    const owner = options.owner ?? { manager: DATA_PLANE_MANAGER };
    const schema = strategy.schema !== undefined && (strategy.schema.applies?.() ?? true);
    if (subresource !== 'status' || owner === 'preset' || old.deleting || schema || options.dryRun || this.deps.admission.hasUserPlugins) return undefined;
    const { type } = strategy;
    const build = replaceStatus(type, old, obj.status, (live, previous) => this.fields.statusUpdateEntries(type, live, previous, obj.status, owner.manager));
    return build ? this.written(strategy, this.deps.storage.putBuilt(this.storageOf(type), build)) : undefined;
  }

  private updateAdmitted(
    strategy: Strategy,
    old: StoredObject,
    prev: JsonObject,
    sent: JsonObject,
    attributes: (object: JsonObject) => AdmissionAttributes,
    subresource: string | undefined,
    options: WriteRequestOptions,
  ): MaybePromise<StoredObject> {
    const { type } = strategy;
    const owner = options.owner ?? { manager: DATA_PLANE_MANAGER };
    const next = mergeForUpdate(strategy, sent, prev, subresource);
    if (owner === 'preset') metaOf(next).managedFields = metaOf(sent).managedFields;
    keepSystemMetadata(strategy, next, prev, subresource);
    const errors = subresource || !strategy.rules.allocate ? [] : strategy.rules.allocate(next, prev, this.allocations.begin(old.key));
    errors.push(...updateErrors(strategy, next, prev, subresource));
    const refusal = invalidObject(strategy, old.name, errors);
    if (refusal) throw refusal;
    if (!subresource) options.warnings?.push(...(strategy.rules.warnings?.(next, prev) ?? []));
    const validated = this.deps.admission.wants('validate', 'UPDATE') ? this.deps.admission.validate(attributes(next), this.context(strategy, options)) : undefined;
    return andThen(validated, () => {
      // A plugin that answered later may have let another write in: kube's GuaranteedUpdate conflict.
      if (this.deps.storage.get(type, old.key) !== old) throw conflict(type, old.name);
      const fieldsChanged = this.fields.record(type, prev, next, owner, subresource);
      const serialized = serialize(next);
      // A no-op write changes nothing: same revision, no event (etcd3 store's GuaranteedUpdate). A
      // write whose field tracking saw a change is none; otherwise the objects are compared.
      if (sameAs(serialized, old) || (fieldsChanged !== true && sameContent(prev, next))) {
        metaOf(next).resourceVersion = String(old.rv);
        return old;
      }
      if (options.dryRun) return unstored(type, next, old.rv);
      if (metaOf(next).deletionTimestamp && !holdsDeletion(strategy, next)) return this.written(strategy, this.deps.storage.remove(this.storageOf(type), old.key, next));
      return this.written(strategy, this.deps.storage.put(this.storageOf(type), serialized));
    });
  }

  /** PATCH; `created` is true when an apply patch created the object (201). */
  patch(
    type: ResourceType,
    namespace: string,
    name: string,
    patchType: PatchType,
    patch: unknown,
    subresource?: string,
    options: WriteRequestOptions & PatchWriter = {},
  ): MaybePromise<{ stored: StoredObject; created: boolean }> {
    const { manager: given, force, ...rest } = options;
    const strategy = this.deps.types.strategyOf(type);
    if (patchType === 'strategic' && !strategy.strategicMergePatch) throw unsupportedMediaType(false);
    const manager = given ?? DATA_PLANE_MANAGER;
    const writeOptions: WriteRequestOptions = { ...rest, patchType };
    if (patchType === 'apply') return this.apply(strategy, namespace, name, patch, manager, force ?? false, subresource, writeOptions);
    const existing = this.get(type, namespace, name);
    const live = this.inVersion(type, parseStored(existing));
    const form = formOf(strategy, subresource);
    const patched = applyPatch(patchType, form ? form.read(live) : live, patch);
    const meta = (patched.metadata ??= {}) as Meta;
    if (meta.resourceVersion !== undefined && meta.resourceVersion !== String(existing.rv)) throw conflict(type, name);
    meta.resourceVersion = String(existing.rv);
    return andThen(this.update(type, namespace, name, patched, subresource, { ...writeOptions, owner: { manager } }), (stored) => ({ stored, created: false }));
  }

  /**
   * Server-side apply (fields/serverSideApply.ts): creates the object when it is missing (not
   * through a subresource: 404), else merges into it with field ownership. The result must name
   * the URL's object; then the create or update path.
   */
  private apply(strategy: Strategy, namespace: string, name: string, body: unknown, manager: string, force: boolean, subresource: string | undefined, options: WriteRequestOptions): MaybePromise<{ stored: StoredObject; created: boolean }> {
    const { type } = strategy;
    const existing = this.deps.storage.get(type, objectKey(type.namespaced ? namespace : '', name));
    if (!existing && subresource) throw notFound(type, name);
    const describe = `${type.namespaced ? `${namespace}/` : ''}${name}; ${type.apiVersion.includes('/') ? type.apiVersion : `/${type.apiVersion}`}, Kind=${type.kind}`;
    const object = this.fields.apply(type, existing ? this.inVersion(type, parseStored(existing)) : undefined, body, manager, force, subresource, describe);
    const objName = metaOf(object).name ?? '';
    if (objName !== name) throw badRequest(`the name of the object (${objName}) does not match the name on the URL (${name})`);
    const preset: WriteRequestOptions = { ...options, owner: 'preset' };
    if (!existing) return andThen(this.create(type, namespace, object, preset), (stored) => ({ stored, created: true }));
    return andThen(this.update(type, namespace, name, object, subresource, preset), (stored) => ({ stored, created: false }));
  }

  /** DELETE; `deleted` is false when finalizers only marked the object for deletion. */
  delete(type: ResourceType, namespace: string, name: string, deleteOptions?: DeleteOptions, options: WriteRequestOptions = {}): MaybePromise<{ stored: StoredObject; deleted: boolean }> {
    const strategy = this.deps.types.strategyOf(type);
    validateDeleteOptions(deleteOptions);
    const old = this.get(type, namespace, name);
    const pre = deleteOptions?.preconditions;
    if (pre?.uid && pre.uid !== old.uid) throw conflict(type, name, preconditionText('UID', pre.uid, old.uid, type, old));
    if (pre?.resourceVersion && pre.resourceVersion !== String(old.rv)) throw conflict(type, name, preconditionText('ResourceVersion', pre.resourceVersion, String(old.rv), type, old));
    const extra = deleteOptions?.propagationPolicy ? { propagationPolicy: deleteOptions.propagationPolicy } : {};
    const oldObject = parseStored(old);
    const a = admissionAttributes(strategy, 'DELETE', namespace, name, undefined, null, oldObject, options, extra);
    const ctx = this.context(strategy, options);
    return andThen(this.deps.admission.admit(a, ctx), () =>
      andThen(this.deps.admission.validate(a, ctx), () => {
        if (this.deps.storage.get(type, old.key) !== old) throw conflict(type, name);
        // A plugin may have kept the oldObject it was shown: the delete then works on a copy.
        return this.deleteAdmitted(strategy, old, this.deps.admission.hasUserPlugins ? parseStored(old) : oldObject, deleteOptions, options);
      }),
    );
  }

  private deleteAdmitted(strategy: Strategy, old: StoredObject, obj: JsonObject, deleteOptions: DeleteOptions | undefined, options: WriteRequestOptions): { stored: StoredObject; deleted: boolean } {
    const { type } = strategy;
    const meta = metaOf(obj);
    const finalizers = finalizersOnDelete(strategy.garbageCollection, meta.finalizers, deleteOptions);
    if (finalizers.length) meta.finalizers = finalizers;
    else delete meta.finalizers;
    if (holdsDeletion(strategy, obj)) {
      strategy.hooks.prepareForDelete?.(obj);
      if (!old.deleting) {
        (meta as JsonObject).deletionTimestamp = this.timestamp();
        meta.deletionGracePeriodSeconds = 0;
        if ((meta.generation ?? 0) > 0) meta.generation = meta.generation! + 1;
      }
      const serialized = serialize(obj);
      if (sameAs(serialized, old)) return { stored: old, deleted: false };
      if (options.dryRun) return { stored: unstored(type, obj, old.rv), deleted: false };
      return { stored: this.written(strategy, this.deps.storage.put(this.storageOf(type), serialized)), deleted: false };
    }
    if (options.dryRun) return { stored: old, deleted: true };
    return { stored: this.written(strategy, this.deps.storage.remove(this.storageOf(type), old.key, obj)), deleted: true };
  }

  /** DELETE on a collection: deletes every matching object, returns what was deleted. */
  deleteCollection(type: ResourceType, namespace: string | undefined, selectors: Selectors, deleteOptions?: DeleteOptions, options: WriteRequestOptions = {}): MaybePromise<StoredObject[]> {
    validateDeleteOptions(deleteOptions);
    const { storage } = this.deps;
    const victims = [...storage.snapshot(type, storage.resourceVersion, namespace)].filter((o) => selectors.matches(o));
    return inSequence(victims, (v) => andThen(this.delete(type, v.namespace, v.name, deleteOptions, options), (r) => r.stored));
  }
}

/** The object of its own a subresource has (a Scale), if it has one. */
const formOf = (strategy: Strategy, subresource: string | undefined): SubresourceForm | undefined => (subresource ? strategy.subresources[subresource]?.form : undefined);

/** A subresource's object as sent: a JSON object naming the URL's object, or kube's 400. */
function viewNamed(body: unknown, name: string): JsonObject {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('the body of the request is not a JSON object');
  const given = ((body as JsonObject).metadata as Meta | undefined)?.name;
  if (given !== undefined && given !== name) throw badRequest(`the name of the object (${given}) does not match the name on the URL (${name})`);
  return body as JsonObject;
}

/** The storage layer's precondition failure, as kube words it (PIPELINE.md §1). */
function preconditionText(what: 'UID' | 'ResourceVersion', given: string, actual: string, type: ResourceType, old: StoredObject): string {
  const key = `/registry/${type.builtIn ? '' : `${type.group}/`}${type.plural}/${old.key}`;
  return `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ${what} in precondition: ${given}, ${what} in object meta: ${actual}`;
}

/** The 409 after generateName found no free name in 8 tries (AM `NewGenerateNameConflict`). */
function generateNameConflict(type: ResourceType, prefix: string): StatusError {
  const message = `${qualifiedResource(type)} "${prefix}" already exists, the server was not able to generate a unique name for the object`;
  return new StatusError(failure(409, 'AlreadyExists', message, { name: prefix, ...(type.group ? { group: type.group } : {}), kind: type.plural, retryAfterSeconds: 1 }));
}
