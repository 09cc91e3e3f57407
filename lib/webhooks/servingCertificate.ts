import { createPrivateKey, X509Certificate } from 'node:crypto';
import { RxkubeError, causeMessage } from '../errors.js';

/**
 * The certificate a webhook server presents (PEM), its key, and the CA bundle kube must trust to
 * call it (the `caBundle` of the configurations), when known.
 *
 * @example
 * ```ts
 * const c: ServingCertificate = { cert: readFileSync('tls.crt', 'utf8'), key: readFileSync('tls.key', 'utf8'), caBundle: readFileSync('ca.crt', 'utf8') };
 * ```
 */
export interface ServingCertificate {
  readonly cert: string;
  readonly key: string;
  readonly caBundle?: string;
}

/**
 * The certificate could not be read or used: a file missing or unreadable, PEM that does not
 * parse, or a key that is not the certificate's. The server keeps serving the certificate it had
 * (at start it does not start).
 *
 * @example
 * ```ts
 * server.errors$.subscribe((e) => { if (e instanceof CertificateError) alert(e.message); });
 * ```
 */
export class CertificateError extends RxkubeError {
  constructor(message: string, cause?: unknown) {
    super('CertificateError', message, cause === undefined ? undefined : { cause });
  }
}

/**
 * What a certificate source emits: a (new) certificate to serve, or why the last attempt to get
 * one failed (the source goes on).
 *
 * @example
 * ```ts
 * source.subscribe((u) => (u.type === 'certificate' ? use(u.certificate) : log(u.error)));
 * ```
 */
export type CertificateUpdate = { readonly type: 'certificate'; readonly certificate: ServingCertificate } | { readonly type: 'error'; readonly error: CertificateError };

/**
 * Checks that `cert` parses, that `key` is its private key, and that `caBundle` (when given)
 * parses; throws {@link CertificateError} saying which is wrong. Returns the certificate's expiry.
 *
 * @example
 * ```ts
 * const notAfter = checkServingCertificate({ cert, key });
 * ```
 */
export function checkServingCertificate(c: ServingCertificate, source = 'the certificate'): Date {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(c.cert);
  } catch (e) {
    throw new CertificateError(`${source}: the certificate is not PEM X.509: ${causeMessage(e)}`, e);
  }
  let matches: boolean;
  try {
    matches = x509.checkPrivateKey(createPrivateKey(c.key));
  } catch (e) {
    throw new CertificateError(`${source}: the private key does not parse: ${causeMessage(e)}`, e);
  }
  if (!matches) throw new CertificateError(`${source}: the private key is not the certificate's (a rotation half written? the next change is read again)`);
  if (c.caBundle !== undefined) {
    try {
      new X509Certificate(c.caBundle);
    } catch (e) {
      throw new CertificateError(`${source}: the CA bundle is not PEM X.509: ${causeMessage(e)}`, e);
    }
  }
  return new Date(x509.validTo);
}
