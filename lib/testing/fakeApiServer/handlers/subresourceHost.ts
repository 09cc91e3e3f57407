import type { DeleteOptions } from '../registry/deletion.js';
import type { SubresourceHost } from '../registry/subresourceAction.js';
import type { WriteRequestOptions } from '../registry/writeRequest.js';
import { parseStored } from '../storage/storedObject.js';
import type { ServerContext } from './serverContext.js';

// What a subresource action (pods/eviction) reaches of the server: the store's reads, a status
// write and a delete, each through the one write path.

/**
 * The server's store as a {@link SubresourceHost}, writing with `options` (the request's user and dry run).
 *
 * @example
 * ```ts
 * const answer = await action(subresourceHost(ctx, {}), 'shop', 'web-0', body);
 * ```
 */
export function subresourceHost(ctx: ServerContext, options: WriteRequestOptions): SubresourceHost {
  const { types, registry, storage } = ctx;
  return {
    stored: (id, namespace, name) => {
      try {
        return parseStored(registry.get(types.resolve(id), namespace, name));
      } catch {
        return undefined;
      }
    },
    listed: (id, namespace) => [...storage.snapshot(types.resolve(id), storage.resourceVersion, namespace)].map(parseStored),
    dryRun: options.dryRun === true,
    writeStatus: (id, obj) => {
      const meta = obj.metadata as { namespace?: string; name: string };
      return registry.update(types.resolve(id), meta.namespace ?? '', meta.name, obj, 'status', options);
    },
    remove: (id, namespace, name, deleteOptions) => registry.delete(types.resolve(id), namespace, name, deleteOptions as DeleteOptions | undefined, options),
    timestamp: () => registry.timestamp(),
  };
}
