import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asyncScheduler, concat, defer, map, Observable, of, repeat, type SchedulerLike } from 'rxjs';
import { ConfigError } from '../configError.js';
import { certificatePem, ipAddressBytes, issueCertificate } from '../node/x509/certificate.js';
import { longTimer } from '../timers/longTimer.js';
import type { CertificateUpdate, ServingCertificate } from './servingCertificate.js';

/**
 * Options of {@link generateCertificates} and {@link generatedCertificates}.
 *
 * @example
 * ```ts
 * const options: GenerateCertificatesOptions = { dnsNames: ['backup-webhooks.backup-system.svc'], validityDays: 90 };
 * ```
 */
export interface GenerateCertificatesOptions {
  /** DNS names of the serving certificate: for a Service, `<name>.<namespace>.svc` (kube's TLS ServerName). Default `['localhost']`. */
  readonly dnsNames?: ReadonlyArray<string>;
  /** IP addresses of the serving certificate. Default `['127.0.0.1', '::1']`. */
  readonly ipAddresses?: ReadonlyArray<string>;
  /** The serving certificate's validity. Default 365 days (the CA's: ten years). */
  readonly validityDays?: number;
  /** The CA's common name. Default `rxkube-webhook-ca`. */
  readonly caName?: string;
}

/**
 * A development CA and a serving certificate it signed; `issue()` signs another serving
 * certificate with the same CA (a renewal: the CA bundle does not change).
 *
 * @example
 * ```ts
 * const generated = generateCertificates({ dnsNames: ['localhost'] });
 * https.createServer({ cert: generated.serving.cert, key: generated.serving.key });
 * ```
 */
export interface GeneratedCertificates {
  /** The CA certificate (PEM): the configurations' `caBundle`. */
  readonly caCert: string;
  /** The serving certificate, its key, and `caBundle` = `caCert`. */
  readonly serving: ServingCertificate;
  /** The serving certificate's expiry. */
  readonly notAfter: Date;
  /** A new serving certificate from the same CA, valid from now. */
  issue(now?: number): { readonly serving: ServingCertificate; readonly notAfter: Date };
}

const DAY = 86400_000;

function checkOptions(o: GenerateCertificatesOptions): void {
  for (const ip of o.ipAddresses ?? []) if (!ipAddressBytes(ip)) throw new ConfigError('ipAddresses', `not an IP address: ${JSON.stringify(ip)}`, { value: ip });
  for (const n of o.dnsNames ?? []) if (typeof n !== 'string' || !/^[A-Za-z0-9*]([-A-Za-z0-9.]*[A-Za-z0-9])?$/.test(n)) throw new ConfigError('dnsNames', `not a DNS name: ${JSON.stringify(n)}`, { value: n });
  const days = o.validityDays ?? 365;
  if (!(days > 0)) throw new ConfigError('validityDays', 'validityDays must be above 0', { value: days });
}

/**
 * Generates a CA (ECDSA P-256, ten years) and a serving certificate it signed for `dnsNames` and
 * `ipAddresses`, with node:crypto and rxkube's own DER encoder: for development and tests, or
 * for a webhook that manages its own certificate (write `caCert` into the configurations).
 *
 * @example
 * ```ts
 * import { generateCertificates } from 'rxkube/webhooks';
 * const { caCert, serving } = generateCertificates({ dnsNames: ['backup-webhooks.backup-system.svc'] });
 * ```
 */
export function generateCertificates(options: GenerateCertificatesOptions = {}, now: number = Date.now()): GeneratedCertificates {
  checkOptions(options);
  const caName = options.caName ?? 'rxkube-webhook-ca';
  const ca = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const issuer = { name: caName, privateKey: ca.privateKey, publicKey: ca.publicKey };
  const caCert = certificatePem(issueCertificate({ subject: caName, kind: 'ca', publicKey: ca.publicKey, issuer, notAfter: new Date(now + 3650 * DAY) }, now));
  const dnsNames = options.dnsNames ?? ['localhost'];
  const issue = (at: number = Date.now()) => {
    const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const notAfter = new Date(at + (options.validityDays ?? 365) * DAY);
    const der = issueCertificate({ subject: dnsNames[0] ?? 'rxkube-webhook', kind: 'server', publicKey: key.publicKey, issuer, dnsNames, ipAddresses: options.ipAddresses ?? ['127.0.0.1', '::1'], notAfter }, at);
    return { serving: { cert: certificatePem(der), key: pemKey(key.privateKey), caBundle: caCert }, notAfter };
  };
  const first = issue(now);
  return { caCert, serving: first.serving, notAfter: first.notAfter, issue };
}

const pemKey = (key: KeyObject): string => key.export({ type: 'pkcs8', format: 'pem' }) as string;

/**
 * Options of {@link generatedCertificates}.
 *
 * @example
 * ```ts
 * const options: GeneratedCertificatesOptions = { dnsNames: ['localhost'], validityDays: 30, renewBeforeDays: 10 };
 * ```
 */
export interface GeneratedCertificatesOptions extends GenerateCertificatesOptions {
  /** Renew this long before expiry. Default a third of the validity. */
  readonly renewBeforeDays?: number;
  /** The clock of the renewal timer. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * A certificate source for `webhookServer` that generates its own CA and serving certificate, and
 * renews the serving certificate (same CA, so the `caBundle` stays) before it expires: a webhook
 * server whose certificate does not lapse a year after it started.
 *
 * @example
 * ```ts
 * const server = webhookServer({ webhooks, certificates: generatedCertificates({ dnsNames: ['localhost'] }) });
 * ```
 */
export function generatedCertificates(options: GeneratedCertificatesOptions = {}): Observable<CertificateUpdate> {
  checkOptions(options);
  const scheduler = options.scheduler ?? asyncScheduler;
  const validity = (options.validityDays ?? 365) * DAY;
  const renewBefore = (options.renewBeforeDays ?? (options.validityDays ?? 365) / 3) * DAY;
  if (!(renewBefore >= 0 && renewBefore < validity)) throw new ConfigError('renewBeforeDays', 'renewBeforeDays must be at least 0 and below validityDays', { value: options.renewBeforeDays });
  return defer(() => {
    const generated = generateCertificates(options, scheduler.now());
    const renewal$ = defer(() => longTimer(validity - renewBefore, scheduler)).pipe(
      map((): CertificateUpdate => ({ type: 'certificate', certificate: generated.issue(scheduler.now()).serving })),
      repeat(),
    );
    return concat(of<CertificateUpdate>({ type: 'certificate', certificate: generated.serving }), renewal$);
  });
}

/**
 * Writes a serving certificate as a Kubernetes TLS Secret mounts it: `tls.crt`, `tls.key` and (with
 * a CA bundle) `ca.crt` in `dir`, each replaced atomically (written aside, then renamed), as
 * cert-manager's Secret volumes change. For development and tests of rotation.
 *
 * @example
 * ```ts
 * writeCertificateFiles('/tmp/k8s-webhook-server/serving-certs', generateCertificates().serving);
 * ```
 */
export function writeCertificateFiles(dir: string, certificate: ServingCertificate): void {
  mkdirSync(dir, { recursive: true });
  const write = (name: string, text: string) => {
    const aside = join(dir, `.${name}.tmp`);
    writeFileSync(aside, text, { mode: 0o600 });
    renameSync(aside, join(dir, name));
  };
  write('tls.key', certificate.key);
  write('tls.crt', certificate.cert);
  if (certificate.caBundle !== undefined) write('ca.crt', certificate.caBundle);
}
