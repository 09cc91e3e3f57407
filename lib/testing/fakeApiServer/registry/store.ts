import type { Random } from '../random.js';
import type { JsonObject, ResourceType, ResourceTypes } from '../resources.js';
import type { WriteUser } from '../writeOptions.js';
import type { Selectors } from '../storage/selectors.js';
import { applyPatch, type PatchType } from './patch.js';
import type { Storage } from '../storage/storage.js';
import { validateOwnerReferences } from './ownerReferences.js';
import { checkMetadataTypes, validateObjectMeta } from './objectMeta.js';
import { objectKey, parseStored, sameAs, serialize, type StoredObject } from '../storage/storedObject.js';
import type { CustomResourceSchemas, WriteOptions } from '../schema/customResourceSchemas.js';
import { DATA_PLANE_MANAGER, FieldManager, type FieldOwner } from '../fields/fieldManager.js';
import { alreadyExists, badRequest, conflict, internalError, invalid, notFound, StatusError, failure, unsupportedMediaType } from '../status.js';
import { sameContent } from './sameContent.js';
import { replaceStatus } from './statusWrite.js';
import { generationChanged, hasStatusSubresource, mergeForUpdate, prepareStatusForCreate } from './statusStrategy.js';
import { customResourceDefinitionType } from './customResourceDefinitions.js';
import { checkNoNewFinalizers, finalizersOnDelete, mustWaitForFinalizers, validateDeleteOptions, type PropagationPolicy } from './deletion.js';
import { namespaceTerminating, prepareNamespaceForCreate, prepareNamespaceForDelete } from '../admission/namespaceLifecycle.js';

/**
 * `DeleteOptions` fields the fake honours.
 *
 * @example
 * ```ts
 * api.delete('pods', 'ns', 'a', { preconditions: { uid: pod.metadata.uid } });
 * ```
 */
export interface DeleteOptions {
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  /** What happens to the dependents (objects whose ownerReferences name this one). Default: Background (Orphan for Jobs and ReplicationControllers). */
  readonly propagationPolicy?: PropagationPolicy;
  /** Legacy: true is Orphan, false Background; cannot be set with `propagationPolicy`. */
  readonly orphanDependents?: boolean;
}

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
  readonly owner?: FieldOwner;
}

interface Meta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  finalizers?: string[];
}

const GENERATE_CHARS = 'bcdfghjklmnpqrstvwxz2456789';
const IN_PROCESS: FieldOwner = { manager: DATA_PLANE_MANAGER };

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

/**
 * A check of a write by a user before it is stored (kube's policy-based RBAC storage): throws the
 * StatusError refusing it. `old` is the stored object of an update.
 *
 * @example
 * ```ts
 * registry.writeGuard = ({ type, object, user }) => { if (refuses(type, object, user)) throw forbidden; };
 * ```
 */
export type WriteGuard = (write: {
  readonly type: ResourceType;
  readonly namespace: string;
  /** The name in the URL ('' on create). */
  readonly name: string;
  readonly object: JsonObject;
  readonly old: JsonObject | undefined;
  readonly user: WriteUser;
}) => void;

/**
 * Write semantics of kube's generic registry (APISERVER.md §5): create, update with optimistic
 * concurrency, patch, delete with preconditions and finalizers, no event on a no-op write. Used by
 * both the HTTP handlers and the in-process data-plane helpers, so they behave the same.
 */
export class Registry {
  /** Checks the writes of HTTP requests (their options carry the user). */
  writeGuard: WriteGuard | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly types: ResourceTypes,
    private readonly rng: Random,
    private readonly now: () => number,
    private readonly autoCreateNamespaces: boolean,
    /** CRD schemas: CRD writes are checked, custom resources pruned, defaulted and validated. */
    private readonly schemas?: CustomResourceSchemas,
  ) {
    this.fields = new FieldManager({
      crdOf: (type) => (type.builtIn ? undefined : storage.get(customResourceDefinitionType, `${type.plural}.${type.group}`)),
      hasStatusSubresource,
      timestamp: () => this.timestamp(),
    });
  }

  /** managedFields and server-side apply (fieldManager.ts). */
  private readonly fields: FieldManager;

  private timestamp(): string {
    // Whole seconds (RFC 3339, as kube's metav1.Time): formatted once per second, not per write.
    const second = Math.floor(this.now() / 1000);
    if (second !== this.lastSecond) {
      this.lastSecond = second;
      this.lastTimestamp = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    }
    return this.lastTimestamp;
  }

  private lastSecond = Number.NaN;
  private lastTimestamp = '';

  get(type: ResourceType, namespace: string, name: string): StoredObject {
    const s = this.storage.get(type, objectKey(type.namespaced ? namespace : '', name));
    if (!s) throw notFound(type, name);
    return s;
  }

  private ensureNamespace(type: ResourceType, namespace: string, meta: Meta): void {
    if (!type.namespaced) return;
    const nsType = this.types.resolve('namespaces');
    const ns = this.storage.get(nsType, namespace);
    if (ns?.deleting) throw namespaceTerminating(type, namespace, meta.name || meta.generateName || 'Unknown');
    if (ns) return;
    if (!this.autoCreateNamespaces) throw notFound(nsType, namespace);
    this.create(nsType, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  }

  private checkBody(type: ResourceType, namespace: string, body: unknown): { obj: JsonObject; meta: Meta } {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('the body of the request is not a JSON object');
    const obj = body as JsonObject;
    checkKind(type, obj);
    checkMetadataTypes(type, obj.metadata);
    obj.apiVersion ??= type.apiVersion;
    obj.kind ??= type.kind;
    const meta = ((obj.metadata ??= {}) as Meta);
    if (type.namespaced) {
      if (meta.namespace && meta.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      meta.namespace = namespace;
    } else delete meta.namespace;
    return { obj, meta };
  }

  /** POST: 201 with the stored object. `body` is consumed (modified and kept). */
  create(type: ResourceType, namespace: string, body: unknown, options?: CreateOptions & WriteOptions): StoredObject {
    if (type.namespaced && !namespace) throw notFound(type, '');
    const { obj, meta } = this.checkBody(type, namespace, body);
    if (!meta.name && !meta.generateName) {
      throw invalid(type.kind, type.group, '', [{ field: 'metadata.name', type: 'FieldValueRequired', body: 'Required value: name or generateName is required' }]);
    }
    if (meta.resourceVersion) throw internalError('resourceVersion should not be set on objects to be created');
    this.ensureNamespace(type, namespace, meta);
    const generated = !meta.name;
    if (generated) {
      for (let attempt = 0; attempt < 8; attempt++) {
        let suffix = '';
        for (let i = 0; i < 5; i++) suffix += GENERATE_CHARS[this.rng.int(GENERATE_CHARS.length)];
        meta.name = `${meta.generateName!.slice(0, 58)}${suffix}`;
        if (!this.storage.get(type, objectKey(namespace, meta.name))) break;
      }
    }
    validateObjectMeta(type, meta.name!, meta, generated);
    const existing = this.storage.get(type, objectKey(type.namespaced ? namespace : '', meta.name!));
    if (existing) throw alreadyExists(type, meta.name!, existing.deleting);
    validateOwnerReferences(type, meta.name!, (meta as { ownerReferences?: unknown }).ownerReferences);
    meta.uid = this.rng.uuid();
    meta.creationTimestamp = this.timestamp();
    if (type.setsGeneration) meta.generation = 1;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    if (type.id === 'namespaces') prepareNamespaceForCreate(obj);
    else if (!options?.withStatus) prepareStatusForCreate(type, obj);
    if (this.schemas?.covers(type)) this.schemas.admit(type, obj, undefined, options);
    if (options?.user) this.writeGuard?.({ type, namespace, name: '', object: obj, old: undefined, user: options.user });
    this.fields.record(type, undefined, obj, options?.owner ?? IN_PROCESS);
    return this.storage.put(type, obj);
  }

  /** PUT (or the write after a PATCH): optimistic concurrency, kept system fields, no-op detection. */
  update(type: ResourceType, namespace: string, name: string, body: unknown, subresource?: string, options?: WriteOptions & { readonly owner?: FieldOwner }): StoredObject {
    const owner = options?.owner ?? IN_PROCESS;
    const { obj, meta } = this.checkBody(type, namespace, body);
    if (meta.name !== undefined && meta.name !== name) throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
    meta.name = name;
    validateObjectMeta(type, name, meta, false);
    validateOwnerReferences(type, name, (meta as { ownerReferences?: unknown }).ownerReferences);
    const old = this.get(type, namespace, name);
    if (!meta.resourceVersion) {
      if (!type.builtIn) {
        throw invalid(type.kind, type.group, name, [
          { field: 'metadata.resourceVersion', type: 'FieldValueInvalid', body: 'Invalid value: 0x0: must be specified for an update' },
        ]);
      }
    } else if (meta.resourceVersion !== String(old.rv)) throw conflict(type, name);
    if (subresource === 'status' && owner !== 'preset' && !old.deleting && !this.schemas?.covers(type)) {
      // Only the status and the writer's managedFields change: spliced into the stored JSON, only
      // the status and managedFields parsed (statusWrite.ts); undefined: the general path below.
      // (A custom resource with a schema takes the general path: its status is validated.)
      const manager = owner.manager;
      const build = replaceStatus(type, old, obj.status, (live, previous) => this.fields.statusUpdateEntries(type, live, previous, obj.status, manager));
      if (build) return this.storage.putBuilt(type, build);
    }
    const prevMeta = old.system;
    // The stored object is parsed: the field manager compares it with the new one (managedFields).
    const prev = parseStored(old);
    const next = mergeForUpdate(type, obj, prev, subresource);
    const nextMeta = next.metadata as Meta;
    if (owner === 'preset') (nextMeta as JsonObject).managedFields = (meta as JsonObject).managedFields;
    if (old.deleting) checkNoNewFinalizers(type, name, (prev.metadata as Meta).finalizers, nextMeta.finalizers);
    nextMeta.uid = prevMeta.uid;
    nextMeta.creationTimestamp = prevMeta.creationTimestamp;
    if (prevMeta.deletionTimestamp) {
      nextMeta.deletionTimestamp = prevMeta.deletionTimestamp;
      nextMeta.deletionGracePeriodSeconds = prevMeta.deletionGracePeriodSeconds;
    } else {
      delete nextMeta.deletionTimestamp;
      delete nextMeta.deletionGracePeriodSeconds;
    }
    if (this.schemas?.covers(type)) this.schemas.admit(type, next, prev ?? parseStored(old), options);
    if (options?.user) this.writeGuard?.({ type, namespace, name, object: next, old: prev, user: options.user });
    if (type.setsGeneration) {
      nextMeta.generation = (prevMeta.generation ?? 1) + (generationChanged(type, next, prev, subresource) ? 1 : 0);
    } else if (prevMeta.generation !== undefined) nextMeta.generation = prevMeta.generation;
    else delete nextMeta.generation;
    const fieldsChanged = this.fields.record(type, prev, next, owner, subresource);
    const serialized = serialize(next);
    // A no-op write changes nothing: same revision, no event (etcd3 store's GuaranteedUpdate). A
    // write whose field tracking saw a change is none; otherwise the objects are compared.
    if (sameAs(serialized, old) || (fieldsChanged !== true && sameContent(prev, next))) {
      nextMeta.resourceVersion = String(old.rv);
      return old;
    }
    if (nextMeta.deletionTimestamp && !mustWaitForFinalizers(type, next)) return this.storage.remove(type, old.key, next);
    return this.storage.put(type, serialized);
  }

  /** PATCH; `created` is true when an apply patch created the object (201). */
  patch(
    type: ResourceType,
    namespace: string,
    name: string,
    patchType: PatchType,
    patch: unknown,
    subresource?: string,
    writeOptions?: WriteOptions & PatchWriter,
  ): { stored: StoredObject; created: boolean } {
    const { manager: given, force, ...rest } = writeOptions ?? {};
    const options: WriteOptions = { ...rest, patchType };
    if (patchType === 'strategic' && !type.builtIn) throw unsupportedMediaType(false);
    const manager = given ?? DATA_PLANE_MANAGER;
    if (patchType === 'apply') return this.apply(type, namespace, name, patch, manager, force ?? false, subresource, options);
    const existing = this.storage.get(type, objectKey(type.namespaced ? namespace : '', name));
    if (!existing) throw notFound(type, name);
    const doc = parseStored(existing);
    const patched = applyPatch(patchType, doc, patch);
    const meta = (patched.metadata ??= {}) as Meta;
    if (meta.resourceVersion !== undefined && meta.resourceVersion !== String(existing.rv)) throw conflict(type, name);
    meta.resourceVersion = String(existing.rv);
    return { stored: this.update(type, namespace, name, patched, subresource, { ...options, owner: { manager } }), created: false };
  }

  /**
   * Server-side apply (serverSideApply.ts): creates the object when it is missing (not through a
   * subresource: 404), else merges into it with field ownership. The result must name the URL's object.
   */
  private apply(type: ResourceType, namespace: string, name: string, body: unknown, manager: string, force: boolean, subresource: string | undefined, options: WriteOptions): { stored: StoredObject; created: boolean } {
    const existing = this.storage.get(type, objectKey(type.namespaced ? namespace : '', name));
    if (!existing && subresource) throw notFound(type, name);
    const describe = `${type.namespaced ? `${namespace}/` : ''}${name}; ${type.apiVersion.includes('/') ? type.apiVersion : `/${type.apiVersion}`}, Kind=${type.kind}`;
    const object = this.fields.apply(type, existing ? parseStored(existing) : undefined, body, manager, force, subresource, describe);
    const objName = (object.metadata as Meta).name ?? '';
    if (objName !== name) throw badRequest(`the name of the object (${objName}) does not match the name on the URL (${name})`);
    if (!existing) return { stored: this.create(type, namespace, object, { ...options, owner: 'preset' }), created: true };
    return { stored: this.update(type, namespace, name, object, subresource, { ...options, owner: 'preset' }), created: false };
  }

  /** DELETE; `deleted` is false when finalizers only marked the object for deletion. */
  delete(type: ResourceType, namespace: string, name: string, options?: DeleteOptions): { stored: StoredObject; deleted: boolean } {
    validateDeleteOptions(options);
    const old = this.get(type, namespace, name);
    const pre = options?.preconditions;
    if (pre?.uid && pre.uid !== old.uid) {
      throw conflict(type, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.uid}`);
    }
    if (pre?.resourceVersion && pre.resourceVersion !== String(old.rv)) {
      throw conflict(type, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.rv}`);
    }
    const obj = parseStored(old);
    const meta = obj.metadata as Meta;
    if (type.id === 'namespaces') prepareNamespaceForDelete(obj, name);
    const finalizers = finalizersOnDelete(type, meta.finalizers, options);
    if (finalizers.length) meta.finalizers = finalizers;
    else delete meta.finalizers;
    if (mustWaitForFinalizers(type, obj)) {
      if (!old.deleting) {
        meta.deletionTimestamp = this.timestamp();
        meta.deletionGracePeriodSeconds = 0;
        if ((meta.generation ?? 0) > 0) meta.generation = meta.generation! + 1;
      }
      const serialized = serialize(obj);
      if (sameAs(serialized, old)) return { stored: old, deleted: false };
      return { stored: this.storage.put(type, serialized), deleted: false };
    }
    return { stored: this.storage.remove(type, old.key, obj), deleted: true };
  }

  /** DELETE on a collection: deletes every matching object, returns what was deleted. */
  deleteCollection(type: ResourceType, namespace: string | undefined, selectors: Selectors, options?: DeleteOptions): StoredObject[] {
    validateDeleteOptions(options);
    const victims = [...this.storage.snapshot(type, this.storage.resourceVersion, namespace)].filter((o) => selectors.matches(o));
    return victims.map((v) => this.delete(type, v.namespace, v.name, options).stored);
  }
}

/** Re-exported for handlers that build statuses from registry errors. */
export { StatusError, failure };

/**
 * A body's kind and apiVersion must be the resource's, as the API server decodes it: a Secret
 * POSTed to configmaps is a 400, not a Secret stored among the ConfigMaps (which informers, which
 * drop objects of another kind, would never see). Either may be left out: it is the resource's.
 */
function checkKind(type: ResourceType, obj: JsonObject): void {
  const { kind, apiVersion } = obj;
  if (kind !== undefined && kind !== type.kind) {
    throw badRequest(`${String(kind)} in version "${type.version}" cannot be handled as a ${type.kind}: the kind does not match the resource`);
  }
  if (apiVersion !== undefined && apiVersion !== type.apiVersion) {
    throw badRequest(`the API version in the data (${String(apiVersion)}) does not match the expected API version (${type.apiVersion})`);
  }
}
