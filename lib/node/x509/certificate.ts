import { createHash, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { TRUE, bitString, explicit, integer, objectIdentifier, octetString, pem, sequence, set, time, tlv, utf8String } from './der.js';

/**
 * Internal: X.509 v3 certificates signed with node:crypto (ECDSA P-256 keys, SHA-256), enough for a
 * CA, a serving certificate for any DNS names and IP addresses, and a client certificate, which
 * Node's TLS and Go's (kube-apiserver, kubectl) accept. Shared by rxkube/webhooks and the fake API
 * server: node:crypto signs but cannot build a certificate, and this is 3 KB where an X.509 library
 * is 300 KB (docs/webhooks.md, "Certificates").
 */

/** What a certificate is for: a CA signs, a server serves TLS, a client authenticates. */
export type CertificateKind = 'ca' | 'server' | 'client';

/**
 * What to put in a certificate.
 *
 * @example
 * ```ts
 * const spec: CertificateSpec = { subject: 'web.shop.svc', kind: 'server', dnsNames: ['web.shop.svc'], publicKey, issuer };
 * ```
 */
export interface CertificateSpec {
  /** The subject's common name (CN). */
  readonly subject: string;
  /** Organizations (O), before the CN, as kubeadm writes `O=system:masters, CN=kubernetes-admin`. */
  readonly organizations?: ReadonlyArray<string>;
  readonly kind: CertificateKind;
  readonly publicKey: KeyObject;
  /** The signer: its CN, its private key and its public key (for the authority key identifier). */
  readonly issuer: { readonly name: string; readonly privateKey: KeyObject; readonly publicKey: KeyObject };
  /** Server certificates: the DNS names (subjectAltName). */
  readonly dnsNames?: ReadonlyArray<string>;
  /** Server certificates: the IP addresses, v4 or v6 (subjectAltName). */
  readonly ipAddresses?: ReadonlyArray<string>;
  /** Default: an hour before now (clocks drift), or before `notAfter`. */
  readonly notBefore?: Date;
  /** Default: a year from now. */
  readonly notAfter?: Date;
}

const rdn = (type: string, value: string) => set(sequence(objectIdentifier(type), utf8String(value)));
const distinguishedName = (cn: string, organizations: ReadonlyArray<string> = []) =>
  sequence(...organizations.map((o) => rdn('2.5.4.10', o)), rdn('2.5.4.3', cn));
const extension = (id: string, critical: boolean, value: Buffer) => sequence(objectIdentifier(id), ...(critical ? [TRUE] : []), octetString(value));
const ECDSA_SHA256 = sequence(objectIdentifier('1.2.840.10045.4.3.2'));

const keyId = (key: KeyObject): Buffer => createHash('sha1').update(key.export({ type: 'spki', format: 'der' })).digest();

/**
 * The bytes of an IP address for a subjectAltName (4 for v4, 16 for v6), or undefined when `ip` is
 * not one.
 *
 * @example
 * ```ts
 * ipAddressBytes('127.0.0.1'); // <Buffer 7f 00 00 01>
 * ipAddressBytes('::1');       // 15 zero bytes and 01
 * ```
 */
export function ipAddressBytes(ip: string): Buffer | undefined {
  if (isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  if (!isIPv6(ip)) return undefined;
  let text = ip.split('%')[0];
  // An embedded IPv4 tail (::ffff:10.0.0.1) becomes its two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const b = v4[1].split('.').map(Number);
    text = text.slice(0, -v4[1].length) + `${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const front = groups(head);
  const back = groups(tail);
  const all = tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  const out = Buffer.alloc(16);
  all.forEach((g, i) => out.writeUInt16BE(g, i * 2));
  return out;
}

function subjectAltNames(spec: CertificateSpec): Buffer {
  const names = (spec.dnsNames ?? []).map((n) => tlv(0x82, Buffer.from(n, 'ascii')));
  for (const ip of spec.ipAddresses ?? []) {
    const bytes = ipAddressBytes(ip);
    if (!bytes) throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
    names.push(tlv(0x87, bytes));
  }
  return sequence(...names);
}

function extensions(spec: CertificateSpec): Buffer[] {
  if (spec.kind === 'ca') {
    return [
      extension('2.5.29.19', true, sequence(TRUE)),
      extension('2.5.29.15', true, bitString(Buffer.from([0x86]), 1)), // digitalSignature, keyCertSign, cRLSign
      extension('2.5.29.14', false, octetString(keyId(spec.publicKey))),
    ];
  }
  const leaf = [
    extension('2.5.29.19', true, sequence()),
    extension('2.5.29.15', true, bitString(Buffer.from([0x80]), 7)), // digitalSignature
  ];
  const authorityKeyId = extension('2.5.29.35', false, sequence(tlv(0x80, keyId(spec.issuer.publicKey))));
  if (spec.kind === 'client') return [...leaf, extension('2.5.29.37', false, sequence(objectIdentifier('1.3.6.1.5.5.7.3.2'))), authorityKeyId];
  return [
    ...leaf,
    extension('2.5.29.37', false, sequence(objectIdentifier('1.3.6.1.5.5.7.3.1'))), // serverAuth
    extension('2.5.29.17', false, subjectAltNames(spec)),
    authorityKeyId,
  ];
}

/**
 * A certificate (DER) signed by `spec.issuer`.
 *
 * @example
 * ```ts
 * const der = issueCertificate({ subject: 'ca', kind: 'ca', publicKey: ca.publicKey, issuer: { name: 'ca', ...ca } });
 * ```
 */
export function issueCertificate(spec: CertificateSpec, now: number = Date.now()): Buffer {
  const serial = randomBytes(16);
  // Positive and without a leading zero byte: DER wants minimal integers, and Go's x509 silently
  // drops a CA it cannot parse, which then shows as "signed by unknown authority".
  serial[0] = 0x40 | (serial[0] & 0x3f);
  const notAfter = spec.notAfter ?? new Date(now + 365 * 86400_000);
  const notBefore = spec.notBefore ?? new Date(Math.min(now, notAfter.getTime()) - 3600_000);
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    ECDSA_SHA256,
    distinguishedName(spec.issuer.name),
    sequence(time(notBefore), time(notAfter)),
    distinguishedName(spec.subject, spec.organizations),
    spec.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(...extensions(spec))),
  );
  return sequence(tbs, ECDSA_SHA256, bitString(sign('sha256', tbs, spec.issuer.privateKey)));
}

/**
 * A DER certificate as PEM.
 *
 * @example
 * ```ts
 * https.createServer({ cert: certificatePem(der), key });
 * ```
 */
export const certificatePem = (der: Buffer): string => pem('CERTIFICATE', der);
