// An HTTPS client as kube-apiserver calls a webhook: node:https, trusting only the CA given, on
// loopback (not a spec file).
import { Agent, request } from 'node:https';
import type { PeerCertificate, TLSSocket } from 'node:tls';

export interface Reply {
  readonly status: number;
  readonly text: string;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The certificate the server presented. */
  readonly peer: PeerCertificate;
}

export function httpsCall(
  url: string,
  options: { ca: string; method?: string; body?: string | Buffer; contentType?: string; agent?: Agent; servername?: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'POST',
        ca: options.ca,
        agent: options.agent ?? false,
        ...(options.servername ? { servername: options.servername } : {}),
        headers: options.body !== undefined ? { 'Content-Type': options.contentType ?? 'application/json', 'Content-Length': Buffer.byteLength(options.body) } : {},
      },
      (res) => {
        const peer = (res.socket as TLSSocket).getPeerCertificate();
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers, peer }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export const json = (r: Reply): { [key: string]: unknown } => JSON.parse(r.text) as { [key: string]: unknown };
