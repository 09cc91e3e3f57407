// Requests through @kubernetes/client-node's own TLS and credential setup (KubeConfig.applyToHTTPSOptions)
// for endpoints client-node has no API class for (/openapi) and bodies it never sends (protobuf).
import type { KubeConfig } from '@kubernetes/client-node';
import { request, type RequestOptions } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';

export interface KubeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

export async function kubeRequest(kc: KubeConfig, path: string, o: { method?: string; body?: Buffer | string; headers?: Record<string, string> } = {}): Promise<KubeResponse> {
  const url = new URL(path, kc.getCurrentCluster()!.server);
  const opts: RequestOptions = { method: o.method ?? 'GET', headers: { ...(o.headers ?? {}) }, agent: false };
  await kc.applyToHTTPSOptions(opts);
  if (o.body !== undefined) (opts.headers as Record<string, string>)['Content-Length'] = String(Buffer.byteLength(o.body));
  return new Promise((resolve, reject) => {
    const req = request(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}
