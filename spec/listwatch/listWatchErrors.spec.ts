import { describe, expect, it } from '@jest/globals';
import { VirtualTimeScheduler } from 'rxjs';
import { ApiStatusError } from '../../lib/errors.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import { MalformedWatchEventError } from '../../lib/listwatch/malformedWatchEventError.js';
import type { Resource } from '../../lib/listwatch/resource.js';
import { WatchDeadError } from '../../lib/listwatch/watchDeadError.js';
import { TransportError } from '../../lib/transport/transportError.js';
import { api, transport, useServer } from './listWatchServer.js';
import { all, cm, configmaps, eventSummary, eventually, type Obj, watchEvents } from './listWatchSupport.js';

// Errors: a broken connection, a malformed line, HTTP errors, an unserved resource, a dead watch (R12).
describe('listWatch over the client-node transport (HTTPS, token and CA from the kubeconfig)', () => {
  useServer(['mal', 'stall']);

  it('a watch whose connection breaks off errors with a TransportError', async () => {
    const before = api.openWatches();
    const done = all(
      listWatch<Obj>(transport, configmaps, { namespace: 'abrupt' }).watch({
        resourceVersion: api.resourceVersion,
      }),
    );
    await api.waitForWatches(before + 1);
    api.faults.dropWatches({ abrupt: true });
    await expect(done).rejects.toBeInstanceOf(TransportError);
  });

  it('reports a malformed line as a MALFORMED event and keeps the events around it', async () => {
    const lw = listWatch<Obj>(transport, configmaps, { namespace: 'mal' });
    const { events, open } = watchEvents(api, lw.watch({ resourceVersion: api.resourceVersion }), 3);
    await open;
    api.create('configmaps', cm('mal', 'before'));
    // The malformed line must come after `before`'s event: the fake writes lines in call order.
    api.faults.malformedLine();
    api.create('configmaps', cm('mal', 'after'));
    const got = await events;
    expect(got.map(eventSummary)).toEqual(['ADDED before', 'MALFORMED', 'ADDED after']);
    expect(got[1]!.type === 'MALFORMED' && got[1]!.error).toBeInstanceOf(MalformedWatchEventError);
  });

  it('HTTP errors arrive as ApiStatusError with the Status and Retry-After', async () => {
    api.faults.failNext(1, { code: 429, retryAfterSeconds: 2, verb: 'list', resource: 'configmaps' });
    const err = await all(listWatch<Obj>(transport, configmaps).list({})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiStatusError);
    expect((err as ApiStatusError).statusCode).toBe(429);
    expect((err as ApiStatusError).retryAfterSeconds).toBe(2);

    api.faults.failNext(1, { code: 500, verb: 'watch', resource: 'configmaps' });
    const werr = await all(listWatch<Obj>(transport, configmaps).watch({})).catch((e: unknown) => e);
    expect(werr).toBeInstanceOf(ApiStatusError);
    expect((werr as ApiStatusError).statusCode).toBe(500);
  });

  it('a plain-text 404 (an unserved resource) becomes an ApiStatusError with a synthesised Status', async () => {
    const foos: Resource = { group: 'nope.example.com', version: 'v1', plural: 'foos', namespaced: true };
    const err = await all(listWatch<Obj>(transport, foos).list({})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiStatusError);
    expect((err as ApiStatusError).statusCode).toBe(404);
    expect((err as ApiStatusError).reason).toBe('NotFound');
    expect((err as ApiStatusError).status.message).toBe('404 page not found');
  });

  it('R12: a stalled watch is declared dead after timeoutSeconds plus the margin of silence, and its connection closed', async () => {
    const scheduler = new VirtualTimeScheduler();
    const lw = listWatch<Obj>(transport, configmaps, {
      namespace: 'stall',
      scheduler,
      deadWatchMarginMs: 5_000,
    });
    const seen: string[] = [];
    const before = api.openWatches();
    const result = new Promise<unknown>((resolve) => {
      lw.watch({ resourceVersion: api.resourceVersion, timeoutSeconds: 60 }).subscribe({
        next: (e) => seen.push(eventSummary(e)),
        error: resolve,
        complete: () => resolve('completed'),
      });
    });
    await api.waitForWatches(before + 1);
    api.create('configmaps', cm('stall', 'alive'));
    await eventually(() => seen.length === 1, 'the first event');
    api.faults.stallWatches();
    api.create('configmaps', cm('stall', 'never-delivered'));
    scheduler.flush(); // 65 s of virtual silence
    const err = await result;
    expect(err).toBeInstanceOf(WatchDeadError);
    expect((err as WatchDeadError).silentMs).toBe(65_000);
    expect(seen).toEqual(['ADDED alive']);
    await eventually(() => api.openWatches() === before, 'the server saw the dead watch close');
  });
});
