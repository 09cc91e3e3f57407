import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { GeneratedCertificates } from '../auth/certificates.js';

/** A listening HTTP(S) server that knows its sockets, so that closing it closes them all. */
export interface Listener {
  readonly port: number;
  /** Stops listening and destroys every socket (open watches included); calls `done` once closed. */
  close(done: () => void): void;
}

/** Listens on `host:port` (0: a free port) over HTTPS with `certs`, or over plain HTTP without. */
export async function listen(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>, certs: GeneratedCertificates | undefined, port: number, host: string): Promise<Listener> {
  const listener = (req: IncomingMessage, res: ServerResponse) => void handle(req, res);
  // Client certificates are asked for, never required: each request then authenticates by one, by
  // a token, or gets a 401 (kube-apiserver's VerifyClientCertIfGiven), rather than a TLS failure.
  const tlsOptions = certs && { cert: certs.serverCert, key: certs.serverKey, ca: certs.caCert, requestCert: true, rejectUnauthorized: false };
  const server: Server = tlsOptions ? createHttpsServer(tlsOptions, listener) : createHttpServer(listener);
  server.keepAliveTimeout = 60000;
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: (done) => {
      server.close(() => done());
      for (const s of sockets) s.destroy();
    },
  };
}
