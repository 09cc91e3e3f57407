import type { ClientCertificate } from './certificates.js';
import type { JsonObject } from '../resources.js';

/**
 * Which credential a kubeconfig of the fake API server carries: a token, a client certificate
 * (inline data), both (clients send both; the server, as kube-apiserver's authenticator chain,
 * authenticates the certificate first), a ServiceAccount's token, or, by default, the server's
 * default credential.
 *
 * @example
 * ```ts
 * const kc = api.kubeConfig({ clientCertificate: api.issueClientCertificate('alice', ['devs']) });
 * const asController = api.kubeConfig({ serviceAccount: { namespace: 'shop', name: 'ready-pods' } });
 * ```
 */
export interface FakeKubeConfigOptions {
  readonly token?: string;
  readonly clientCertificate?: ClientCertificate;
  /**
   * A token of this ServiceAccount (which must exist), as a TokenRequest would issue it: the
   * kubeconfig acts as `system:serviceaccount:<namespace>:<name>`, in its groups. Default lifetime
   * 3600 s (on the server's clock), at least 600.
   */
  readonly serviceAccount?: { readonly namespace: string; readonly name: string; readonly expirationSeconds?: number };
}


/** What the server's kubeconfigs are made of. */
export interface KubeConfigSource {
  /** `https://127.0.0.1:PORT` (or `http://`). */
  readonly url: string;
  /** The CA certificate (PEM) of an HTTPS server; undefined over plain HTTP. */
  readonly caCert: string | undefined;
  /** The token of the default kubeconfig, if any. */
  readonly defaultToken: string | undefined;
  /** Whether the default kubeconfig authenticates with a client certificate. */
  readonly certAuth: boolean;
  readonly issueClientCertificate: (user: string, groups?: ReadonlyArray<string>) => ClientCertificate;
  /** Issues a token of a ServiceAccount (throws when it does not exist). */
  readonly serviceAccountToken: (sa: NonNullable<FakeKubeConfigOptions['serviceAccount']>) => string;
}

/** Builds the server's kubeconfig text (JSON, which kubectl reads as YAML) for a credential. */
export function kubeConfigBuilder({ url, caCert, defaultToken, certAuth, issueClientCertificate, serviceAccountToken }: KubeConfigSource): (o?: FakeKubeConfigOptions) => string {
  // client-node 1.4 refuses an http:// server unless skipTLSVerify is set ("HTTP protocol is not
  // allowed when skipTLSVerify is not set"); there is no TLS to verify, so say so.
  const plainHttpCluster = { 'insecure-skip-tls-verify': true };
  let defaultCertificate: ClientCertificate | undefined;
  const credential = (o?: FakeKubeConfigOptions): JsonObject => {
    if (o?.serviceAccount) {
      if (o.token !== undefined || o.clientCertificate) throw new Error('kubeConfig: give one credential, a serviceAccount or a token or a clientCertificate');
      return { token: serviceAccountToken(o.serviceAccount) };
    }
    const cert = o?.clientCertificate ?? (o?.token === undefined && certAuth ? (defaultCertificate ??= issueClientCertificate('admin', ['system:masters'])) : undefined);
    // Both given: both kept, as a kubeconfig user may hold both (the server, as kube's, tries the certificate first).
    if (cert) {
      return {
        ...(o?.token !== undefined ? { token: o.token } : {}),
        'client-certificate-data': Buffer.from(cert.cert).toString('base64'),
        'client-key-data': Buffer.from(cert.key).toString('base64'),
      };
    }
    const token = o?.token ?? defaultToken;
    return token ? { token } : {};
  };

  return (o?: FakeKubeConfigOptions): string => {
    return JSON.stringify(
      {
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'rxkube-fake', cluster: { server: url, ...(caCert ? { 'certificate-authority-data': Buffer.from(caCert).toString('base64') } : plainHttpCluster) } }],
        users: [{ name: 'rxkube-fake-user', user: credential(o) }],
        contexts: [{ name: 'rxkube-fake', context: { cluster: 'rxkube-fake', user: 'rxkube-fake-user', namespace: 'default' } }],
        'current-context': 'rxkube-fake',
        preferences: {},
      },
      null,
      2,
    );
  };
}
