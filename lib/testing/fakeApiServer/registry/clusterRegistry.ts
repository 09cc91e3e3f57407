import { EVENTS_V1, CORE_EVENTS, isEventResource, normalizeEvent, toCoreEvent, toEventsV1Event } from './events.js';
import type { PatchType } from './patch.js';
import type { FieldOwner } from '../fields/fieldManager.js';
import { Registry, type CreateOptions, type DeleteOptions, type PatchWriter } from './store.js';
import type { JsonObject, ResourceType, ResourceTypes } from '../resources.js';
import type { Selectors } from '../storage/selectors.js';
import type { Storage } from '../storage/storage.js';
import { parseStored, type StoredObject } from '../storage/storedObject.js';
import type { Random } from '../random.js';
import type { CustomResourceSchemas, WriteOptions } from '../schema/customResourceSchemas.js';

/**
 * The registry as a cluster runs it: every write of an Event is stored for both Event APIs at one
 * resourceVersion, and, in `'immediate'` mode, the controllers' work is done before a write returns.
 */
export class ClusterRegistry extends Registry {
  private controllers: { settle(): void } | undefined;

  constructor(
    private readonly store: Storage,
    private readonly served: ResourceTypes,
    rng: Random,
    now: () => number,
    autoCreateNamespaces: boolean,
    schemas?: CustomResourceSchemas,
  ) {
    super(store, served, rng, now, autoCreateNamespaces, schemas);
  }

  /** Attaches the controllers to settle after each write. */
  attach(controllers: { settle(): void }): void {
    this.controllers = controllers;
  }

  override create(type: ResourceType, namespace: string, body: unknown, options?: CreateOptions & WriteOptions): StoredObject {
    const s = super.create(type, namespace, this.eventBody(type, body), options);
    this.mirror(type, s);
    this.controllers?.settle();
    return s;
  }

  override update(type: ResourceType, namespace: string, name: string, body: unknown, subresource?: string, options?: WriteOptions & { readonly owner?: FieldOwner }): StoredObject {
    const s = super.update(type, namespace, name, this.eventBody(type, body), subresource, options);
    this.mirror(type, s);
    this.controllers?.settle();
    return s;
  }

  override patch(
    type: ResourceType,
    namespace: string,
    name: string,
    patchType: PatchType,
    patch: unknown,
    subresource?: string,
    options?: WriteOptions & PatchWriter,
  ): { stored: StoredObject; created: boolean } {
    const r = super.patch(type, namespace, name, patchType, patch, subresource, options);
    this.controllers?.settle();
    return r;
  }

  override delete(type: ResourceType, namespace: string, name: string, options?: DeleteOptions): { stored: StoredObject; deleted: boolean } {
    const r = super.delete(type, namespace, name, options);
    this.mirror(type, r.stored);
    this.controllers?.settle();
    return r;
  }

  override deleteCollection(type: ResourceType, namespace: string | undefined, selectors: Selectors, options?: DeleteOptions): StoredObject[] {
    const r = super.deleteCollection(type, namespace, selectors, options);
    this.controllers?.settle();
    return r;
  }

  /** An Event body in the form its storage keeps (both APIs' fields converted), other bodies as they are. */
  private eventBody(type: ResourceType, body: unknown): unknown {
    if (!type.builtIn || !isEventResource(type.id) || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
    return normalizeEvent(type.id, body as JsonObject);
  }

  /** After a write of one Event resource, the same write in the other, at the same resourceVersion. */
  private mirror(type: ResourceType, s: StoredObject): void {
    if (!type.builtIn || !isEventResource(type.id) || s.rv !== this.store.resourceVersion) return;
    const other = this.served.resolve(type.id === CORE_EVENTS ? EVENTS_V1 : CORE_EVENTS);
    const obj = parseStored(s);
    const converted = type.id === CORE_EVENTS ? toEventsV1Event(obj) : toCoreEvent(obj);
    const gone = this.store.get(type, s.key) === undefined;
    this.store.mirror(other, s.key, gone ? undefined : converted, converted);
  }
}
