import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import {
  bitString,
  explicit,
  integer,
  objectIdentifier as oid,
  octetString as octets,
  pem,
  sequence as seq,
  set,
  time,
  TRUE,
  tlv,
  utf8String as utf8,
} from '../../../node/x509/der.js';

/**
 * X.509 certificates built with node:crypto alone (DER from lib/node/x509/der.ts, shared with
 * rxkube/webhooks), ECDSA P-256 keys, SHA-256 signatures. Enough for a CA and a server
 * certificate for 127.0.0.1/localhost that Node's TLS and Go's (kubectl) accept.
 */

const rdn = (type: string, value: string) => set(seq(oid(type), utf8(value)));
// O (organization) before CN, as kubeadm and kind write `O=system:masters, CN=kubernetes-admin`.
const name = (cn: string, organizations: ReadonlyArray<string> = []) => seq(...organizations.map((o) => rdn('2.5.4.10', o)), rdn('2.5.4.3', cn));
const extension = (id: string, critical: boolean, value: Buffer) => seq(oid(id), ...(critical ? [TRUE] : []), octets(value));
const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

const keyId = (key: KeyObject): Buffer => createHash('sha1').update(key.export({ type: 'spki', format: 'der' })).digest();

interface CertSpec {
  readonly subject: string;
  readonly organizations?: ReadonlyArray<string>;
  readonly issuer: string;
  readonly publicKey: KeyObject;
  readonly signingKey: KeyObject;
  readonly issuerKey: KeyObject;
  readonly kind: 'ca' | 'server' | 'client';
  readonly notBefore?: Date;
  readonly notAfter?: Date;
}

// The names kube-apiserver's serving certificate carries besides its addresses.
const SERVER_DNS_NAMES = ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'];

function leafExtensions(spec: CertSpec): Buffer[] {
  const common = [
    extension('2.5.29.19', true, seq()),
    extension('2.5.29.15', true, bitString(Buffer.from([0x80]), 7)), // digitalSignature
  ];
  const aki = extension('2.5.29.35', false, seq(tlv(0x80, keyId(spec.issuerKey))));
  if (spec.kind === 'client') return [...common, extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.2'))), aki]; // clientAuth
  const sans = seq(...SERVER_DNS_NAMES.map((n) => tlv(0x82, Buffer.from(n))), tlv(0x87, Buffer.from([127, 0, 0, 1])));
  return [...common, extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))), extension('2.5.29.17', false, sans), aki]; // serverAuth
}

function certificate(spec: CertSpec): Buffer {
  const now = Date.now();
  const serial = randomBytes(16);
  // Positive and without a leading zero byte: DER wants minimal integers, and Go's x509 (kubectl)
  // silently drops a CA it cannot parse, which then shows as "signed by unknown authority".
  serial[0] = 0x40 | (serial[0] & 0x3f);
  const extensions =
    spec.kind === 'ca'
      ? [
          extension('2.5.29.19', true, seq(TRUE)),
          extension('2.5.29.15', true, bitString(Buffer.from([0x86]), 1)), // digitalSignature, keyCertSign, cRLSign
          extension('2.5.29.14', false, octets(keyId(spec.publicKey))),
        ]
      : leafExtensions(spec);
  const notAfter = spec.notAfter ?? new Date(now + 10 * 365 * 86400_000);
  const notBefore = spec.notBefore ?? new Date(Math.min(now, notAfter.getTime()) - 3600_000);
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    ECDSA_SHA256,
    name(spec.issuer),
    seq(time(notBefore), time(notAfter)),
    name(spec.subject, spec.organizations),
    spec.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, seq(...extensions)),
  );
  return seq(tbs, ECDSA_SHA256, bitString(sign('sha256', tbs, spec.signingKey)));
}

/** PEM material of a fresh CA and a server certificate it signed, for 127.0.0.1 and localhost. */
export interface GeneratedCertificates {
  readonly caCert: string;
  readonly serverCert: string;
  readonly serverKey: string;
  /** Signs client certificates with the CA (user = CN, groups = O, as kube-apiserver reads them). */
  issueClientCertificate(user: string, groups?: ReadonlyArray<string>, options?: ClientCertificateOptions): ClientCertificate;
}

/**
 * A client certificate and its private key, PEM.
 *
 * @example
 * ```ts
 * const { cert, key }: ClientCertificate = api.issueClientCertificate('alice', ['devs']);
 * ```
 */
export interface ClientCertificate {
  readonly cert: string;
  readonly key: string;
}

/**
 * Validity of an issued client certificate (wall-clock dates, as TLS checks them).
 *
 * @example
 * ```ts
 * const expired: ClientCertificateOptions = { notAfter: new Date(Date.now() - 60_000) };
 * ```
 */
export interface ClientCertificateOptions {
  /** Default: an hour before now (or before `notAfter`). */
  readonly notBefore?: Date;
  /** Default: ten years from now. */
  readonly notAfter?: Date;
}

/**
 * Generates a CA and a server certificate (ECDSA P-256), at server start.
 *
 * @example
 * ```ts
 * const { caCert, serverCert, serverKey } = generateCertificates();
 * https.createServer({ cert: serverCert, key: serverKey });
 * ```
 */
export function generateCertificates(): GeneratedCertificates {
  const ca = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const server = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const issuer = 'rxkube-fake-apiserver-ca';
  const signed = { issuer, signingKey: ca.privateKey, issuerKey: ca.publicKey };
  const caDer = certificate({ subject: issuer, publicKey: ca.publicKey, ...signed, kind: 'ca' });
  const serverDer = certificate({ subject: 'rxkube-fake-apiserver', publicKey: server.publicKey, ...signed, kind: 'server' });
  return {
    caCert: pem('CERTIFICATE', caDer),
    serverCert: pem('CERTIFICATE', serverDer),
    serverKey: server.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    issueClientCertificate: (user, groups = [], options = {}) => {
      const client = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const der = certificate({ subject: user, organizations: groups, publicKey: client.publicKey, ...signed, kind: 'client', ...options });
      return { cert: pem('CERTIFICATE', der), key: client.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
    },
  };
}
