import type { ServerResponse } from 'node:http';
import type { ServerContext } from './serverContext.js';
import type { ListQuery } from './listOptions.js';
import type { ResourceType } from '../resources.js';
import { compileSelectors } from '../storage/selectors.js';
import { withShard, type AppliedShard } from '../storage/shardSelector.js';
import type { Output } from '../wire/outputForm.js';
import { failure } from '../status.js';
import { errorLine, eventLine } from '../watch/watchLines.js';
import { WatchStream } from '../watch/watchStream.js';
import { tableWatchEncoder, type TableOutput } from './tableOutput.js';

/**
 * WATCH semantics (APISERVER.md §3): synthetic ADDED for unset/"0", replay from history for N,
 * 200 + ERROR 410 + close for a compacted N, 200 + ERROR 504 ResourceVersionTooLarge + close for an N
 * the server does not reach within `tooLargeResourceVersionWaitMs`, streaming lists with the initial-events-end bookmark,
 * bookmarks and timeouts on the injected scheduler. Headers are flushed before anything else.
 */
export async function serveWatch(
  ctx: ServerContext,
  res: ServerResponse,
  type: ResourceType,
  namespace: string | undefined,
  q: ListQuery,
  output: Output,
  shard?: AppliedShard,
  table?: TableOutput,
  convert?: (line: string) => Promise<string>,
): Promise<void> {
  const { storage } = ctx;
  const selectors = withShard(compileSelectors(q.labelSelector, q.fieldSelector, type), shard);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  res.socket?.setNoDelay(true);
  const requested = q.resourceVersion === undefined || q.resourceVersion === '0' ? undefined : Number(q.resourceVersion);

  // A watch (streaming list or not) from a revision the server has not reached waits a little for it,
  // then answers as kube-apiserver's watch cache does (waitUntilFreshAndBlock): an ERROR event 504
  // with cause ResourceVersionTooLarge, and the end of the stream. After an etcd restore, a client
  // re-watching from its old RV thus learns it must relist instead of waiting silently for ever.
  if (requested !== undefined && requested > storage.resourceVersion) {
    if (!(await ctx.waitForRv(requested))) {
      const s = failure(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${storage.resourceVersion}`, {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds: 1,
      });
      res.end(errorLine(s));
      return;
    }
  }
  if (res.destroyed) return;

  const initial = q.sendInitialEvents ?? requested === undefined;
  const from = initial ? storage.resourceVersion : (requested ?? storage.resourceVersion);
  if (!initial && from < storage.history.compactedRv) {
    const s = failure(410, 'Expired', `too old resource version: ${from} (${storage.history.compactedRv})`);
    res.end(errorLine(s));
    return;
  }
  const stream = new WatchStream({
    res,
    type,
    namespace,
    selectors,
    bookmarks: q.allowWatchBookmarks,
    startRv: from,
    scheduler: ctx.scheduler,
    currentRv: () => storage.resourceVersion,
    slowMs: ctx.slowMs,
    onClose: (s) => ctx.hub.remove(s),
    ...(table ? { encode: tableWatchEncoder(ctx, table) } : output.watchLine ? { encode: output.watchLine } : {}),
    ...(convert ? { convert } : {}),
  });
  // From here to hub.add everything is synchronous: no change can slip between the initial state
  // (or the replayed history) and the live events.
  if (initial) {
    for (const o of storage.snapshot(type, from, namespace)) if (selectors.matches(o)) stream.send(eventLine('ADDED', o.json));
    if (q.sendInitialEvents === true) stream.sendBookmark(true);
  } else {
    if (ctx.initialBookmark) stream.sendBookmark();
    if (from < storage.resourceVersion) for (const c of storage.history.since(from)) stream.offer(c);
  }
  ctx.hub.add(stream);
  const timeoutMs = q.timeoutSeconds !== undefined && q.timeoutSeconds > 0 ? q.timeoutSeconds * 1000 : (1800 + ctx.rng.int(1800)) * 1000;
  stream.start(ctx.bookmarkIntervalMs, timeoutMs);
}
