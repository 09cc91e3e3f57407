import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { asyncScheduler, catchError, distinctUntilChanged, from, map, merge, Observable, of, startWith, switchMap, type SchedulerLike } from 'rxjs';
import { causeMessage } from '../errors.js';
import { ConfigError } from '../configError.js';
import { longInterval } from '../timers/longTimer.js';
import { CertificateError, checkServingCertificate, type CertificateUpdate, type ServingCertificate } from './servingCertificate.js';

/**
 * Options of {@link fileCertificates}. Names are controller-runtime's (`CertDir`, `CertName`,
 * `KeyName`); the defaults are a Kubernetes TLS Secret's keys.
 *
 * @example
 * ```ts
 * const options: FileCertificatesOptions = { certDir: '/tmp/k8s-webhook-server/serving-certs' };
 * ```
 */
export interface FileCertificatesOptions {
  /** The directory of the files (a mounted Secret). */
  readonly certDir: string;
  /** Default `tls.crt`. */
  readonly certName?: string;
  /** Default `tls.key`. */
  readonly keyName?: string;
  /** The CA bundle for the configurations' `caBundle` (cert-manager writes `ca.crt`). Default none: the caBundle is not managed. */
  readonly caName?: string;
  /** Also re-read every this many ms, in case a change was not seen. Default 10 000 (controller-runtime's certwatcher). */
  readonly pollIntervalMs?: number;
  /** The clock of the polling. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** Changes in `dir` (a Secret volume swaps a `..data` symlink there), as a stream of ticks. */
function directoryChanges(dir: string): Observable<void> {
  return new Observable<void>((subscriber) => {
    let watcher: ReturnType<typeof watch>;
    try {
      watcher = watch(dir, () => subscriber.next());
    } catch {
      return undefined; // no watch (the directory does not exist yet): polling still reads
    }
    watcher.on('error', () => watcher.close()); // e.g. the directory was removed: polling goes on
    return () => watcher.close();
  });
}

async function readCertificate(paths: { cert: string; key: string; ca?: string }): Promise<ServingCertificate> {
  const read = async (path: string) => {
    try {
      return await readFile(path, 'utf8');
    } catch (e) {
      throw new CertificateError(`cannot read ${path}: ${causeMessage(e)}`, e);
    }
  };
  const [cert, key, caBundle] = await Promise.all([read(paths.cert), read(paths.key), paths.ca ? read(paths.ca) : Promise.resolve(undefined)]);
  const certificate: ServingCertificate = { cert, key, ...(caBundle !== undefined ? { caBundle } : {}) };
  checkServingCertificate(certificate, paths.cert);
  return certificate;
}

const identity = (u: CertificateUpdate): string => (u.type === 'certificate' ? `c${u.certificate.cert}\0${u.certificate.key}\0${u.certificate.caBundle ?? ''}` : `e${u.error.message}`);

/**
 * A certificate source for `webhookServer` that serves the files of a mounted Secret (cert-manager,
 * or any rotation that rewrites them) and follows them: it re-reads when the directory changes and
 * every `pollIntervalMs`, and emits each new certificate (checked: the key must be the
 * certificate's) so that the server swaps its TLS context without a restart. A read that fails
 * is emitted as an error update and the last good certificate stays in use.
 *
 * @example
 * ```ts
 * import { fileCertificates, webhookServer } from 'rxkube/webhooks';
 * const server = webhookServer({ webhooks, certificates: fileCertificates({ certDir: '/certs', caName: 'ca.crt' }) });
 * ```
 */
export function fileCertificates(options: FileCertificatesOptions): Observable<CertificateUpdate> {
  if (typeof options?.certDir !== 'string' || options.certDir === '') throw new ConfigError('certDir', 'fileCertificates needs certDir, the directory of tls.crt and tls.key', { value: options?.certDir });
  const poll = options.pollIntervalMs ?? 10_000;
  if (!(poll > 0)) throw new ConfigError('pollIntervalMs', 'pollIntervalMs must be above 0', { value: poll });
  const paths = {
    cert: join(options.certDir, options.certName ?? 'tls.crt'),
    key: join(options.certDir, options.keyName ?? 'tls.key'),
    ...(options.caName ? { ca: join(options.certDir, options.caName) } : {}),
  };
  const dirs = [...new Set([dirname(paths.cert), dirname(paths.key), ...(paths.ca ? [dirname(paths.ca)] : [])])];
  const triggers$ = merge(...dirs.map(directoryChanges), longInterval(poll, options.scheduler ?? asyncScheduler)).pipe(startWith(undefined));
  return triggers$.pipe(
    // A newer change supersedes a read in progress.
    switchMap(() =>
      from(readCertificate(paths)).pipe(
        map((certificate): CertificateUpdate => ({ type: 'certificate', certificate })),
        catchError((e: unknown) => of(errorUpdate(e))),
      ),
    ),
    distinctUntilChanged((a, b) => identity(a) === identity(b)),
  );
}

const errorUpdate = (e: unknown): CertificateUpdate => ({ type: 'error', error: e instanceof CertificateError ? e : new CertificateError(causeMessage(e), e) });

/**
 * A certificate source of one certificate you already have (PEM strings), never changing.
 *
 * @example
 * ```ts
 * const server = webhookServer({ webhooks, certificates: staticCertificate({ cert, key, caBundle }) });
 * ```
 */
export function staticCertificate(certificate: ServingCertificate): Observable<CertificateUpdate> {
  checkServingCertificate(certificate);
  return of<CertificateUpdate>({ type: 'certificate', certificate });
}
