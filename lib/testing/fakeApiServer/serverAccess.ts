import { ApiStatusError } from '../../errors.js';
import type { SchedulerLike } from 'rxjs';
import type { FakeApiServerOptions } from './options.js';
import { seededRandom } from './random.js';
import { accessControl, type AccessControl } from './rbac/accessControl.js';
import { generateSigningKey } from './rbac/jwt.js';
import { serviceAccountTokenIssuer, type TokenObject, type TokenObjectLookup } from './rbac/serviceAccountToken.js';
import { storedRbacObjects } from './rbac/storedRbacObjects.js';
import { tokenRequest, type TokenRequestSpec } from './rbac/tokenRequest.js';
import type { ResourceTypes } from './registry/resourceTypes.js';
import { StatusError } from './status.js';
import type { Storage } from './storage/storage.js';
import { parseStored, type StoredObject } from './storage/storedObject.js';

// A server's authorization over its storage: the RBAC objects it stores, a token issuer with a key
// of its own, and the objects its ServiceAccount tokens name.

/**
 * The access control of a server (`options.authorization`, default AlwaysAllow) over its stored RBAC
 * objects, with its own token signing key, and the objects ServiceAccount tokens name.
 */
export function serverAccessControl(
  storage: Storage,
  types: ResourceTypes,
  scheduler: SchedulerLike,
  options: FakeApiServerOptions,
): { access: AccessControl; tokenObjects: TokenObjectLookup } {
  const keyOf = (namespaced: boolean, namespace: string, name: string) => (namespaced ? `${namespace}/${name}` : name);
  const objects = storedRbacObjects<StoredObject>({
    get: (resource, namespace, name) => {
      const type = types.resolve(resource);
      return storage.get(type, keyOf(type.namespaced, namespace, name));
    },
    list: (resource, namespace) => storage.snapshot(types.resolve(resource), storage.resourceVersion, namespace),
    parse: parseStored,
  });
  const parsed = new WeakMap<StoredObject, TokenObject>();
  const tokenObjects: TokenObjectLookup = (resource, namespace, name) => {
    const type = types.resolve(resource);
    const s = storage.get(type, keyOf(type.namespaced, namespace, name));
    if (!s) return undefined;
    let o = parsed.get(s);
    if (!o) parsed.set(s, (o = parseStored(s) as TokenObject));
    return o;
  };
  // Token ids from a source of their own, so issuing tokens does not change the uids objects get.
  const ids = seededRandom((options.seed ?? 1) ^ 0x5eed);
  const issuer = serviceAccountTokenIssuer({ key: generateSigningKey(), now: () => scheduler.now(), newId: () => ids.uuid() });
  return { access: accessControl(options.authorization ?? 'AlwaysAllow', objects, issuer), tokenObjects };
}

/**
 * `api.createToken`: a TokenRequest without HTTP (same defaults, checks and errors, as ApiStatusError).
 */
export function tokenCreator(
  access: AccessControl,
  tokenObjects: TokenObjectLookup,
  now: () => number,
): (namespace: string, name: string, spec?: TokenRequestSpec) => { readonly token: string; readonly expirationTimestamp: string } {
  return (namespace, name, spec = {}) => {
    try {
      const { object } = tokenRequest({ spec }, { namespace, name, lookup: tokenObjects, issuer: access.issuer, now });
      return object.status as { token: string; expirationTimestamp: string };
    } catch (e) {
      if (e instanceof StatusError) throw new ApiStatusError(e.status);
      throw e;
    }
  };
}
