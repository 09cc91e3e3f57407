// Certificates: the generated CA and serving certificate (Node's TLS accepts them for any DNS name
// or IP), renewal on virtual time, and rotation from files: the next handshake serves the new
// certificate without a restart, a half-written pair keeps the old one.
import { afterEach, describe, expect, it } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualTimeScheduler, type Subscription } from 'rxjs';
import { allowed } from '../../lib/webhooks/admissionDecision.js';
import { validatingWebhook } from '../../lib/webhooks/admissionWebhook.js';
import { fileCertificates } from '../../lib/webhooks/fileCertificates.js';
import { generateCertificates, generatedCertificates, writeCertificateFiles } from '../../lib/webhooks/generatedCertificates.js';
import { CertificateError, type CertificateUpdate } from '../../lib/webhooks/servingCertificate.js';
import { webhookServer, type WebhookServer } from '../../lib/webhooks/webhookServer.js';
import { waitFor } from '../support/waitFor.js';
import { httpsCall } from './https.js';
import { backups, type Backup } from './support.js';

const hook = validatingWebhook<Backup>({ name: 'backups.validate.example.com', resource: backups, validate: () => allowed() });
const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

describe('generateCertificates', () => {
  it('issues a CA and a serving certificate for arbitrary DNS names and IPs (v4 and v6), signed by the CA', () => {
    const g = generateCertificates({ dnsNames: ['backup-webhooks.backup-system.svc', 'localhost'], ipAddresses: ['127.0.0.1', '::1', 'fd00::1:2'], validityDays: 30 });
    const ca = new X509Certificate(g.caCert);
    const leaf = new X509Certificate(g.serving.cert);
    expect(ca.ca).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.subjectAltName).toBe('DNS:backup-webhooks.backup-system.svc, DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:FD00:0:0:0:0:0:1:2');
    expect(leaf.checkHost('backup-webhooks.backup-system.svc')).toBe('backup-webhooks.backup-system.svc');
    expect(leaf.checkIP('fd00::1:2')).toBe('fd00::1:2');
    expect(Math.round((new Date(leaf.validTo).getTime() - Date.now()) / 86400_000)).toBe(30);
    expect(g.serving.caBundle).toBe(g.caCert);
  });

  it('refuses a name or address that is not one', () => {
    expect(() => generateCertificates({ ipAddresses: ['localhost'] })).toThrow('not an IP address: "localhost"');
    expect(() => generateCertificates({ dnsNames: ['a b'] })).toThrow('not a DNS name');
  });
});

describe('generatedCertificates', () => {
  it('renews the serving certificate from the same CA before it expires (a third of its validity by default)', () => {
    const scheduler = new VirtualTimeScheduler();
    const seen: CertificateUpdate[] = [];
    const sub = generatedCertificates({ validityDays: 90, scheduler }).subscribe((u) => seen.push(u));
    try {
      expect(seen).toHaveLength(1);
      scheduler.maxFrames = 60 * 86400_000 - 1;
      scheduler.flush();
      expect(seen).toHaveLength(1);
      scheduler.maxFrames = 60 * 86400_000;
      scheduler.flush();
      expect(seen).toHaveLength(2);
      const [first, second] = seen.map((u) => (u.type === 'certificate' ? u.certificate : undefined));
      expect(second?.cert).not.toBe(first?.cert);
      expect(second?.caBundle).toBe(first?.caBundle);
      expect(new X509Certificate(second!.cert).checkIssued(new X509Certificate(first!.caBundle!))).toBe(true);
    } finally {
      sub.unsubscribe();
    }
  });
});

describe('fileCertificates rotation', () => {
  let dir: string;
  let server: WebhookServer | undefined;
  let sub: Subscription | undefined;
  afterEach(async () => {
    sub?.unsubscribe();
    await server?.stop(0);
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('the next TLS handshake after the files are rewritten serves the new certificate, without a restart', async () => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-certs-'));
    const first = generateCertificates({ ipAddresses: ['127.0.0.1'] });
    writeCertificateFiles(dir, first.serving);
    server = webhookServer({ webhooks: [hook], certificates: fileCertificates({ certDir: dir, caName: 'ca.crt' }), host: '127.0.0.1', port: 0, logger: false });
    const { url } = await server.start();
    const bundles: string[] = [];
    sub = server.certificates$.subscribe((c) => bundles.push(c.caBundle ?? ''));
    const before = await httpsCall(`${url}/healthz`, { ca: first.caCert, method: 'GET' });
    expect(before.peer.fingerprint256).toBe(fingerprint(first.serving.cert));

    const second = generateCertificates({ ipAddresses: ['127.0.0.1'] }); // a new CA too (a rotated issuer)
    writeCertificateFiles(dir, second.serving);
    await waitFor(() => bundles.at(-1) === second.caCert, 'the server to read the rotated files');
    const after = await httpsCall(`${url}/healthz`, { ca: second.caCert, method: 'GET' });
    expect(after.peer.fingerprint256).toBe(fingerprint(second.serving.cert));
    expect(bundles).toEqual([first.caCert, second.caCert]);
  });

  it('a key that is not the certificate\'s is reported and the last good certificate stays in use', async () => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-certs-'));
    const good = generateCertificates({ ipAddresses: ['127.0.0.1'] });
    writeCertificateFiles(dir, good.serving);
    server = webhookServer({ webhooks: [hook], certificates: fileCertificates({ certDir: dir }), host: '127.0.0.1', port: 0, logger: false });
    const errors: unknown[] = [];
    sub = server.errors$.subscribe((e) => errors.push(e));
    const { url } = await server.start();
    writeFileSync(join(dir, 'tls.key'), generateCertificates().serving.key);
    await waitFor(() => errors.length > 0, 'the mismatched key to be reported');
    expect(errors[0]).toBeInstanceOf(CertificateError);
    expect((errors[0] as Error).message).toContain("the private key is not the certificate's");
    const reply = await httpsCall(`${url}/healthz`, { ca: good.caCert, method: 'GET' });
    expect(reply.peer.fingerprint256).toBe(fingerprint(good.serving.cert));
  });

  it('a server whose certificate files are missing does not start, saying which file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-certs-'));
    server = webhookServer({ webhooks: [hook], certificates: fileCertificates({ certDir: dir }), host: '127.0.0.1', port: 0, logger: false });
    await expect(server.start()).rejects.toThrow(`cannot read ${join(dir, 'tls.crt')}`);
  });
});
