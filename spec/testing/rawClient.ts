// A small raw HTTP client for protocol-level assertions against the fake API server (real sockets
// on loopback; nothing mocked). Client-level behaviour is tested through @kubernetes/client-node.
import { request as httpRequest, type IncomingHttpHeaders, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { FakeApiServer } from '../../lib/testing/index.js';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface RawOptions {
  method?: string;
  query?: Record<string, string>;
  body?: unknown;
  contentType?: string;
  token?: string | null;
  headers?: Record<string, string>;
}

function start(api: FakeApiServer, path: string, o: RawOptions, onResponse: Parameters<typeof httpRequest>[2]): ClientRequest {
  const u = new URL(path, api.url);
  for (const [k, v] of Object.entries(o.query ?? {})) u.searchParams.set(k, v);
  const token = o.token === undefined ? api.token : o.token;
  const headers: Record<string, string> = { Accept: 'application/json', ...(o.headers ?? {}) };
  if (token) headers.Authorization = `Bearer ${token}`;
  const body = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
  if (body !== undefined) {
    headers['Content-Type'] = o.contentType ?? 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(u, { method: o.method ?? 'GET', headers, ca: api.caCert, agent: false }, onResponse);
  if (body !== undefined) req.write(body);
  req.end();
  return req;
}

/** One request, whole body read. */
export function raw(api: FakeApiServer, path: string, o: RawOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = start(api, path, o, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RawEvent = { type: string; object: any };

/** An open watch: raw lines as received, parsed events, and a way to wait for them. */
export interface RawWatch {
  status: number;
  headers: IncomingHttpHeaders;
  lines: string[];
  events: RawEvent[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  isEnded(): boolean;
  /** Resolves when `pred(events)` holds; rejects after `timeoutMs` (a bound on the test, not a timing assertion). */
  until(pred: (events: RawEvent[]) => boolean, timeoutMs?: number): Promise<RawEvent[]>;
  close(): void;
}

/** Opens a watch; resolves once the response headers arrive (the server flushes them first). */
export function rawWatch(api: FakeApiServer, path: string, o: RawOptions = {}): Promise<RawWatch> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    const events: RawEvent[] = [];
    const waiters = new Set<() => void>();
    let ended = false;
    let endResolve: () => void = () => undefined;
    const endedP = new Promise<void>((r) => (endResolve = r));
    const req = start(api, path, { ...o, query: { watch: 'true', ...(o.query ?? {}) } }, (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        buf += c;
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          lines.push(line);
          try {
            events.push(JSON.parse(line) as RawEvent);
          } catch {
            events.push({ type: 'MALFORMED', object: line });
          }
        }
        waiters.forEach((w) => w());
      });
      const finish = () => {
        if (ended) return;
        ended = true;
        endResolve();
        waiters.forEach((w) => w());
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        lines,
        events,
        ended: endedP,
        isEnded: () => ended,
        until: (pred, timeoutMs = 5000) =>
          new Promise((ok, fail) => {
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`watch condition not met; events so far: ${JSON.stringify(events.map((e) => e.type))}`));
            }, timeoutMs);
            const check = () => {
              if (pred(events)) {
                clearTimeout(timer);
                waiters.delete(check);
                ok(events);
              } else if (ended) {
                clearTimeout(timer);
                waiters.delete(check);
                fail(new Error(`watch ended before condition; events: ${JSON.stringify(events.map((e) => e.type))}`));
              }
            };
            waiters.add(check);
            check();
          }),
        close: () => {
          req.destroy();
          finish();
        },
      });
    });
    req.on('error', (e) => {
      if (!ended) reject(e);
    });
  });
}

export const names = (events: RawEvent[]): string[] => events.map((e) => `${e.type} ${e.object?.metadata?.name ?? ''}`.trim());
