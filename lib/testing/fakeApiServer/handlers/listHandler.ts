import type { ServerResponse } from 'node:http';
import type { ServerContext } from './serverContext.js';
import { decodeContinue, encodeContinue } from './continueToken.js';
import type { ListQuery } from './listOptions.js';
import type { Output } from '../wire/outputForm.js';
import type { ResourceType } from '../resources.js';
import { compileSelectors } from '../storage/selectors.js';
import { withShard, type AppliedShard } from '../storage/shardSelector.js';
import { badRequest, expiredContinue, expiredList, tooLargeResourceVersion } from '../status.js';
import type { StoredObject } from '../storage/storedObject.js';

/** A page of a list, before serialisation. */
export interface ListResult {
  readonly rv: number;
  readonly items: StoredObject[];
  readonly continue: string;
  readonly remainingItemCount: number | undefined;
}

/**
 * LIST semantics (APISERVER.md §2): picks the snapshot revision from resourceVersion,
 * resourceVersionMatch, limit and continue; 410 for a compacted revision or token; waits for a
 * future revision, then 504; pages in key order with remainingItemCount when there is no selector.
 */
export async function listObjects(ctx: ServerContext, type: ResourceType, namespace: string | undefined, q: ListQuery, shard?: AppliedShard): Promise<ListResult> {
  const { storage } = ctx;
  const selectors = withShard(compileSelectors(q.labelSelector, q.fieldSelector, type), shard);
  let rv: number;
  let after: string | undefined;
  if (q.continue !== undefined) {
    if (q.resourceVersion !== undefined && q.resourceVersion !== '0') throw badRequest('specifying resource version is not allowed when using continue');
    const token = decodeContinue(q.continue);
    if (token.rv < storage.history.compactedRv) throw expiredContinue();
    rv = token.rv;
    after = token.after;
  } else if (q.resourceVersion === undefined || q.resourceVersion === '0') {
    rv = storage.resourceVersion;
  } else {
    const n = Number(q.resourceVersion);
    const exact = q.resourceVersionMatch === 'Exact' || (q.resourceVersionMatch === undefined && q.limit > 0);
    if (n > storage.resourceVersion && !(await ctx.waitForRv(n))) throw tooLargeResourceVersion(n, storage.resourceVersion);
    if (exact) {
      if (n < storage.history.compactedRv) throw expiredList();
      rv = n;
    } else rv = storage.resourceVersion;
  }
  if (rv > storage.resourceVersion) rv = storage.resourceVersion;
  const items: StoredObject[] = [];
  let more = false;
  const limit = q.limit;
  const snapshot = storage.snapshot(type, rv, namespace, after);
  for (const o of snapshot) {
    if (!selectors.matches(o)) continue;
    if (limit > 0 && items.length === limit) {
      more = true;
      break;
    }
    items.push(o);
  }
  let remainingItemCount: number | undefined;
  const lastKey = items.length > 0 ? items[items.length - 1].key : undefined;
  if (more && selectors.isEmpty && lastKey !== undefined) {
    if (storage.isCurrentFor(type, rv)) remainingItemCount = storage.remainingLive(type, namespace, lastKey);
    else {
      remainingItemCount = 1; // the object that ended the page was already taken from the iterator
      for (let r = snapshot.next(); !r.done; r = snapshot.next()) remainingItemCount++;
    }
  }
  return { rv, items, continue: more && lastKey !== undefined ? encodeContinue(rv, lastKey) : '', remainingItemCount };
}

const BATCH_BYTES = 1 << 20;

/** Streams a list response: the items' stored JSON joined in ~1 MB writes, honouring backpressure. */
export async function writeList(res: ServerResponse, output: Output, result: ListResult, shard?: AppliedShard): Promise<void> {
  const meta = [`"resourceVersion":"${result.rv}"`];
  if (result.continue) meta.push(`"continue":"${result.continue}"`);
  if (result.remainingItemCount !== undefined) meta.push(`"remainingItemCount":${result.remainingItemCount}`);
  if (shard !== undefined) meta.push(`"shardInfo":{"selector":${JSON.stringify(shard.selector)}}`);
  res.writeHead(200, { 'Content-Type': 'application/json' });
  const head = output.listHead;
  const itemJson = (o: StoredObject) => output.object(o.json);
  let buf = `{"kind":"${head.kind}","apiVersion":"${head.apiVersion}","metadata":{${meta.join(',')}},"items":[`;
  for (let i = 0; i < result.items.length; i++) {
    buf += i === 0 ? itemJson(result.items[i]) : `,${itemJson(result.items[i])}`;
    if (buf.length >= BATCH_BYTES) {
      const ok = res.write(buf);
      buf = '';
      if (!ok) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
        if (res.destroyed) return;
      }
    }
  }
  res.end(`${buf}]}`);
}
