import { ApiStatusError } from '../../errors.js';
import type { FakeApiServer, FakeList, Stored } from './fakeApiServer.js';
import type { PatchType } from './registry/patch.js';
import type { CreateOptions, DeleteOptions, Registry } from './registry/store.js';
import type { ResourceTypes } from './registry/resourceTypes.js';
import { now, type WriteRequestOptions } from './registry/writeRequest.js';
import type { JsonObject, ResourceRef, ResourceType } from './resources.js';
import { notFound, StatusError } from './status.js';
import type { Storage } from './storage/storage.js';
import { parseStored, type StoredObject } from './storage/storedObject.js';

/** The data-plane helpers of {@link FakeApiServer}: reads and writes without HTTP. */
export type DataPlane = Pick<FakeApiServer, 'create' | 'update' | 'updateStatus' | 'writeMany' | 'patch' | 'delete' | 'get' | 'list'>;

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

const frozen = <T>(s: StoredObject): Stored<T> => deepFreeze(parseStored(s)) as Stored<T>;

function rethrow(e: unknown): never {
  if (e instanceof StatusError) throw new ApiStatusError(e.status, { retryAfterSeconds: e.status.details?.retryAfterSeconds });
  throw e;
}

const resolveNs = (type: ResourceType, obj: object): string =>
  type.namespaced ? (((obj as JsonObject).metadata as { namespace?: string } | undefined)?.namespace ?? 'default') : '';
const nameOf = (obj: object): string => (((obj as JsonObject).metadata as { name?: string } | undefined)?.name ?? '');
// Writes only touch the top level and metadata of the object given (nested values are serialised
// at once, never kept), so a shallow copy keeps the caller's object untouched.
// A deep copy: the write path consumes its input (defaults and admission change it in place), and a
// caller's object may be frozen (a fixture, an object read from the server) or used again.
const copy = <T>(o: T): T => (typeof o !== 'object' || o === null || Array.isArray(o) ? o : structuredClone(o));

// Writes made in process cannot wait: an admission plugin that answers later is refused.
const SYNC: WriteRequestOptions = { sync: true };

/**
 * The data-plane helpers over the server's registry: writes emit the same watch events as HTTP
 * requests, errors are the `ApiStatusError` the HTTP API would answer, results are frozen copies.
 */
export function dataPlane(storage: Storage, registry: Registry, types: ResourceTypes): DataPlane {
  const hasStatus = (type: ResourceType): boolean => types.strategyOf(type).status !== undefined;
  return {
    create: <T extends object>(resource: ResourceRef, obj: T, options?: CreateOptions): Stored<T> => {
      try {
        const type = types.resolve(resource);
        return frozen<T>(now(registry.create(type, resolveNs(type, obj), copy(obj), { ...options, ...SYNC })));
      } catch (e) {
        return rethrow(e);
      }
    },
    update: <T extends object>(resource: ResourceRef, obj: T): Stored<T> => {
      try {
        const type = types.resolve(resource);
        return frozen<T>(now(registry.update(type, resolveNs(type, obj), nameOf(obj), copy(obj), undefined, SYNC)));
      } catch (e) {
        return rethrow(e);
      }
    },
    updateStatus: <T extends object>(resource: ResourceRef, obj: T): Stored<T> => {
      try {
        const type = types.resolve(resource);
        if (!hasStatus(type)) throw notFound(type, nameOf(obj));
        return frozen<T>(now(registry.update(type, resolveNs(type, obj), nameOf(obj), copy(obj), 'status', SYNC)));
      } catch (e) {
        return rethrow(e);
      }
    },
    writeMany: (resource, objects, options) => {
      try {
        const type = types.resolve(resource);
        const status = options?.subresource === 'status';
        if (status && !hasStatus(type)) throw notFound(type, '');
        for (const obj of objects) {
          const ns = resolveNs(type, obj);
          if (storage.get(type, type.namespaced ? `${ns}/${nameOf(obj)}` : nameOf(obj))) now(registry.update(type, ns, nameOf(obj), copy(obj), status ? 'status' : undefined, SYNC));
          else now(registry.create(type, ns, copy(obj), { withStatus: status, ...SYNC }));
        }
        return String(storage.resourceVersion);
      } catch (e) {
        return rethrow(e);
      }
    },
    patch: <T extends object>(resource: ResourceRef, namespace: string | undefined, name: string, patch: unknown, type: PatchType = 'merge', subresource?: 'status'): Stored<T> => {
      try {
        const t = types.resolve(resource);
        if (subresource && !hasStatus(t)) throw notFound(t, name);
        return frozen<T>(now(registry.patch(t, namespace ?? '', name, type, patch, subresource, SYNC)).stored);
      } catch (e) {
        return rethrow(e);
      }
    },
    delete: <T extends object>(resource: ResourceRef, namespace: string | undefined, name: string, o?: DeleteOptions): Stored<T> => {
      try {
        return frozen<T>(now(registry.delete(types.resolve(resource), namespace ?? '', name, o, SYNC)).stored);
      } catch (e) {
        return rethrow(e);
      }
    },
    get: <T extends object>(resource: ResourceRef, namespace: string | undefined, name: string): Stored<T> | undefined => {
      const type = types.resolve(resource);
      const s = storage.get(type, type.namespaced ? `${namespace ?? ''}/${name}` : name);
      return s ? frozen<T>(s) : undefined;
    },
    list: <T extends object>(resource: ResourceRef, namespace?: string): FakeList<T> => {
      const type = types.resolve(resource);
      const items = [...storage.snapshot(type, storage.resourceVersion, namespace)].map((s) => frozen<T>(s));
      return deepFreeze({ items, resourceVersion: String(storage.resourceVersion) });
    },
  };
}
