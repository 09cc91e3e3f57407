import { describe, expect, it } from '@jest/globals';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { RxkubeError } from '../../lib/errors.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import type { Resource } from '../../lib/listwatch/resource.js';
import type { Transport, TransportRequest } from '../../lib/transport/transport.js';

const pods: Resource = { group: '', version: 'v1', plural: 'pods', namespaced: true };

/** A transport whose list answers `body(request)`: the server under test, in memory. */
function answering(body: (req: TransportRequest) => string): Transport & { requests: TransportRequest[] } {
  const requests: TransportRequest[] = [];
  return {
    requests,
    request(req) {
      requests.push(req);
      const bytes = new TextEncoder().encode(body(req));
      return Promise.resolve({
        status: 200,
        header: () => undefined,
        body: (async function* () {
          yield bytes;
        })(),
      });
    },
  };
}

const listError = async (body: string): Promise<unknown> =>
  lastValueFrom(listWatch(answering(() => body), pods).list({ limit: 500 })).then(
    () => undefined,
    (e: unknown) => e,
  );

describe('list responses that are JSON but no list (a broken server, a proxy)', () => {
  it.each([['42'], ['"str"'], ['[]'], ['{}'], ['{"kind":"PodList","metadata":{"resourceVersion":"5"}}'], ['null'], ['{"items":{}}'], ['{"items":[],"metadata":"x"}'], ['{"items":[],"metadata":{"continue":7}}']])(
    '%s is a MalformedResponseError, not an empty list (a relist would empty the store)',
    async (body) => {
      const e = await listError(body);
      expect(e).toBeInstanceOf(RxkubeError);
      expect((e as RxkubeError).code).toBe('MalformedResponseError');
      expect((e as Error).message).toMatch(/the list response is not a list/);
    },
  );

  it('items: null is an empty list; a numeric resourceVersion comes back as a string', async () => {
    const page = await firstValueFrom(listWatch(answering(() => '{"items":null,"metadata":{"resourceVersion":100}}'), pods).list({}));
    expect(page.items).toEqual([]);
    expect(page.resourceVersion).toBe('100');
  });
});

describe('a pager that never ends', () => {
  it('a server that sends back the continue token it was given is a MalformedResponseError after two pages, not an endless loop', async () => {
    const t = answering(() => '{"metadata":{"resourceVersion":"100","continue":"SAME"},"items":[]}');
    const seen = await lastValueFrom(listWatch(t, pods).list({ limit: 1 }).pipe(toArray())).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((seen as RxkubeError).code).toBe('MalformedResponseError');
    expect((seen as Error).message).toMatch(/sent back the continue token it was given/);
    expect(t.requests.map((r) => r.query['continue'] ?? '')).toEqual(['', 'SAME']);
  });

  it('distinct tokens page on as long as the server has more', async () => {
    const t = answering((req) => {
      const n = Number(req.query['continue'] ?? '0');
      return JSON.stringify({ metadata: { resourceVersion: '1', ...(n < 3 ? { continue: String(n + 1) } : {}) }, items: [] });
    });
    const pages = await lastValueFrom(listWatch(t, pods).list({ limit: 1 }).pipe(toArray()));
    expect(pages).toHaveLength(4);
  });
});
