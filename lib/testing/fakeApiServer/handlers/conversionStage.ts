import type { ConversionFailure } from '../registry/conversion.js';
import { applyPatch, type PatchType } from '../registry/patch.js';
import type { WriteRequestOptions } from '../registry/writeRequest.js';
import type { JsonObject, ResourceType } from '../resources.js';
import { badRequest, conflict } from '../status.js';
import { parseStored, type StoredObject } from '../storage/storedObject.js';
import type { ServerContext } from './serverContext.js';

// The conversion stage of the read and write paths where it takes a custom resource's conversion
// webhook (an asynchronous call): objects read in another version than the storage one are sent
// to the webhook before their output form is built; bodies written in another version are
// converted to the storage version before the store's one write path (which then runs on the
// storage version's type), and patches are applied to the live object in the request's version.
// Conversion None is the output's apiVersion rewrite (wire/outputForm.ts) and the decoder's.

/**
 * Whether requests for `type` convert through a webhook: a custom resource with conversion
 * Webhook, asked in a version other than its storage one. Undefined otherwise.
 */
function webhookTarget(ctx: ServerContext, type: ResourceType): ResourceType | undefined {
  const storage = ctx.types.storageOf(type);
  if (storage.apiVersion === type.apiVersion || !ctx.conversion.usesWebhook(ctx.types.strategyOf(type))) return undefined;
  return storage;
}

/**
 * Stored objects as a read of `type` sees them: converted by the webhook when it takes one (the
 * whole list in one ConversionReview), else as they are (the output rewrites apiVersion).
 *
 * @example
 * ```ts
 * const [answer] = await convertedForRead(ctx, type, [stored], 'read');
 * ```
 */
export async function convertedForRead(ctx: ServerContext, type: ResourceType, items: StoredObject[], when: ConversionFailure = 'read'): Promise<StoredObject[]> {
  if (items.length === 0 || !webhookTarget(ctx, type)) return items;
  const converted = await ctx.conversion.convert(ctx.types.strategyOf(type), items.map(parseStored), type.apiVersion, when);
  return items.map((s, i) => ({ ...s, json: JSON.stringify(converted[i]) }));
}

/**
 * The watch lines of `type` converted by its webhook, one ConversionReview per event, or undefined
 * when no webhook is involved.
 *
 * @example
 * ```ts
 * const convert = watchLineConverter(ctx, type);
 * ```
 */
export function watchLineConverter(ctx: ServerContext, type: ResourceType): ((line: string) => Promise<string>) | undefined {
  if (!webhookTarget(ctx, type)) return undefined;
  const strategy = ctx.types.strategyOf(type);
  return async (line) => {
    const event = JSON.parse(line) as { type: string; object: JsonObject };
    if (event.type === 'ERROR' || event.type === 'BOOKMARK') return line;
    const [object] = await ctx.conversion.convert(strategy, [event.object], type.apiVersion, 'read');
    return `${JSON.stringify({ type: event.type, object })}\n`;
  };
}

/** The decoder's checks of a body against the URL's version (registry/decode.ts words them). */
function requestObject(type: ResourceType, body: unknown): JsonObject {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('the body of the request is not a JSON object');
  const obj = body as JsonObject;
  if (obj.kind !== undefined && obj.kind !== type.kind) throw badRequest(`${String(obj.kind)} in version "${type.version}" cannot be handled as a ${type.kind}: the kind does not match the resource`);
  if (obj.apiVersion !== undefined && obj.apiVersion !== type.apiVersion) {
    throw badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${type.apiVersion})`);
  }
  return { ...obj, apiVersion: type.apiVersion, kind: type.kind };
}

/**
 * A create's or update's body in the storage version, and the type the store then writes it as:
 * through the webhook when `type` takes one, else unchanged (the decoder rewrites apiVersion).
 *
 * @example
 * ```ts
 * const { type: as, body: converted } = await bodyForWrite(ctx, type, body);
 * ```
 */
export async function bodyForWrite(ctx: ServerContext, type: ResourceType, body: unknown): Promise<{ type: ResourceType; body: unknown }> {
  const storage = webhookTarget(ctx, type);
  if (!storage) return { type, body };
  const [converted] = await ctx.conversion.convert(ctx.types.strategyOf(type), [requestObject(type, body)], storage.apiVersion, 'write');
  return { type: storage, body: converted };
}

/**
 * A PATCH of `type` when it converts through a webhook: the live object converted to the request's
 * version, patched there, converted back and written through the store's update path. Undefined
 * when no webhook is involved (the store patches as usual); server-side apply is left to the store.
 *
 * @example
 * ```ts
 * const stored = await patchAcrossVersions(ctx, type, 'ns', 'b', 'merge', body, undefined, options);
 * ```
 */
export async function patchAcrossVersions(
  ctx: ServerContext,
  type: ResourceType,
  namespace: string,
  name: string,
  patchType: PatchType,
  patch: unknown,
  subresource: string | undefined,
  options: WriteRequestOptions,
): Promise<StoredObject | undefined> {
  const storage = webhookTarget(ctx, type);
  if (!storage || patchType === 'apply') return undefined;
  const strategy = ctx.types.strategyOf(type);
  const existing = ctx.registry.get(storage, namespace, name);
  const [live] = await ctx.conversion.convert(strategy, [parseStored(existing)], type.apiVersion, 'write');
  const patched = applyPatch(patchType, live, patch);
  const meta = (patched.metadata ??= {}) as { resourceVersion?: string };
  if (meta.resourceVersion !== undefined && meta.resourceVersion !== String(existing.rv)) throw conflict(type, name);
  meta.resourceVersion = String(existing.rv);
  const [back] = await ctx.conversion.convert(strategy, [requestObject(type, patched)], storage.apiVersion, 'write');
  return ctx.registry.update(storage, namespace, name, back, subresource, options);
}
