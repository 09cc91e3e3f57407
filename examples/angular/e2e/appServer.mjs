// Serves the built app and proxies /k8s/* to an API server, as `kubectl proxy --www=... --api-prefix=/k8s/`
// does, plus one fault a real proxy can have: cutUpstream() destroys every proxied upstream connection
// and leaves the browser's side open and silent (no end, no error), so only the reflector's own
// liveness check can notice.
import { createServer, request } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.ico': 'image/x-icon', '.json': 'application/json' };

/**
 * @param {{ root: string, upstream: string, prefix?: string }} options
 * @returns {Promise<{ url: string, cutUpstream(): number, close(): Promise<void> }>}
 */
export async function startAppServer({ root, upstream, prefix = '/k8s' }) {
  const target = new URL(upstream);
  /** Open proxied exchanges: the upstream request and a flag that silences it. */
  const open = new Set();
  const sockets = new Set();

  async function serveFile(req, res) {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(root, path);
    let body;
    try {
      body = await readFile(file);
    } catch {
      // A client-side route (ns/shop, ...): the app's index.html.
      if (extname(path)) return void res.writeHead(404).end();
      body = await readFile(join(root, 'index.html'));
      return void res.writeHead(200, { 'Content-Type': TYPES['.html'] }).end(body);
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  }

  function proxy(req, res) {
    const exchange = { cut: false, upReq: undefined };
    const upReq = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url.slice(prefix.length) || '/',
        headers: { ...req.headers, host: target.host },
      },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.on('data', (chunk) => exchange.cut || res.write(chunk));
        upRes.on('end', () => exchange.cut || res.end());
        upRes.on('error', () => exchange.cut || res.destroy());
      },
    );
    exchange.upReq = upReq;
    open.add(exchange);
    upReq.on('error', () => {
      if (!exchange.cut && !res.headersSent) res.writeHead(502).end();
      else if (!exchange.cut) res.destroy();
    });
    upReq.on('close', () => exchange.cut || open.delete(exchange));
    res.on('close', () => {
      open.delete(exchange);
      upReq.destroy();
    });
    req.pipe(upReq);
  }

  const server = createServer((req, res) => {
    if (req.url === prefix || req.url.startsWith(prefix + '/') || req.url.startsWith(prefix + '?')) proxy(req, res);
    else void serveFile(req, res).catch(() => res.writeHead(500).end());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    cutUpstream() {
      let n = 0;
      for (const exchange of open) {
        if (exchange.cut) continue;
        exchange.cut = true;
        exchange.upReq.destroy();
        n++;
      }
      return n;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
