import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { CONTROL_PREFIX, type DropEventsSpec, type FailNextOptions, type WatchErrorSpec } from './faults.js';
import type { PartitionSpec } from './partitions.js';

/**
 * The faults of a fake API server in another process, over HTTP (each resolves to the count affected).
 *
 * @example
 * ```ts
 * const faults: RemoteFaultControl = remoteFaults(url, { token, ca });
 * await faults.dropWatches();
 * ```
 */
export interface RemoteFaultControl {
  dropWatches(options?: { readonly abrupt?: boolean }): Promise<number>;
  /** Predicates cannot cross processes: a count, a probability, or a field match. */
  dropEvents(spec: Exclude<DropEventsSpec, (e: never) => boolean>): Promise<number>;
  stopDroppingEvents(): Promise<number>;
  sendWatchError(spec: WatchErrorSpec): Promise<number>;
  failNext(count: number, options: FailNextOptions): Promise<number>;
  compact(): Promise<number>;
  stallWatches(): Promise<number>;
  slowEvents(ms: number): Promise<number>;
  malformedLine(): Promise<number>;
  bookmarkNow(): Promise<number>;
  partition(spec: PartitionSpec): Promise<number>;
  heal(spec?: Pick<PartitionSpec, 'user' | 'userAgent'>): Promise<number>;
  reset(): Promise<number>;
}

/**
 * Controls the faults of a fake API server started elsewhere (e.g. by the `rxkube-fake-apiserver`
 * bin), given its URL, a token it accepts (or, for one started with `--client-cert-auth`, a client
 * certificate and key, PEM) and, for HTTPS, its CA certificate (PEM).
 *
 * @example
 * ```ts
 * const faults = remoteFaults('https://127.0.0.1:6443', { token, ca });
 * await faults.sendWatchError({ code: 410 });
 * ```
 */
export function remoteFaults(
  url: string,
  options: { readonly token?: string; readonly ca?: string; readonly cert?: string; readonly key?: string } = {},
): RemoteFaultControl {
  const call = (fault: string, args: object = {}): Promise<number> =>
    new Promise((resolve, reject) => {
      const u = new URL(CONTROL_PREFIX + fault, url);
      const body = JSON.stringify(args);
      const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(
        u,
        {
          method: 'POST',
          ca: options.ca,
          cert: options.cert,
          key: options.key,
          headers: { 'Content-Type': 'application/json', ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200) reject(new Error(`fault ${fault} failed: ${res.statusCode} ${text}`));
            else resolve((JSON.parse(text) as { affected: number }).affected);
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return {
    dropWatches: (o) => call('dropWatches', o ?? {}),
    dropEvents: (spec) => call('dropEvents', typeof spec === 'number' ? { count: spec } : spec),
    stopDroppingEvents: () => call('stopDroppingEvents'),
    sendWatchError: (spec) => call('sendWatchError', spec),
    failNext: (count, o) => call('failNext', { ...o, count }),
    compact: () => call('compact'),
    stallWatches: () => call('stallWatches'),
    slowEvents: (ms) => call('slowEvents', { ms }),
    malformedLine: () => call('malformedLine'),
    bookmarkNow: () => call('bookmarkNow'),
    partition: (spec) => call('partition', spec),
    heal: (spec) => call('heal', spec ?? {}),
    reset: () => call('reset'),
  };
}
