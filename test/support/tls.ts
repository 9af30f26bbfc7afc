/**
 * Throwaway certificates (openssl):
 * - a self-signed one for localhost, for tests that start server.ts with TLS_CERT_FILE/TLS_KEY_FILE and
 *   trust exactly that certificate;
 * - a certificate authority that issues certificates for any host name, for tests of clients that
 *   check a server's chain and name as they would on the internet.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificate {
  /** TLS_CERT_FILE and TLS_KEY_FILE for the server. */
  env: { TLS_CERT_FILE: string; TLS_KEY_FILE: string };
  /** The certificate, for clients to trust. */
  cert: Buffer;
  remove: () => void;
}

export function selfSignedCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'chemflow-tls-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return {
    env: { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile },
    cert: readFileSync(certFile),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TestCertificateAuthority {
  /** The authority's certificate, for clients to trust. */
  ca: Buffer;
  /** A certificate for `hostname` signed by the authority, with its key, for a server to present. */
  issue: (hostname: string) => { cert: Buffer; key: Buffer };
  remove: () => void;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'];

export function testCertificateAuthority(): TestCertificateAuthority {
  const dir = mkdtempSync(join(tmpdir(), 'chemflow-ca-'));
  const caCert = join(dir, 'ca.pem');
  const caKey = join(dir, 'ca-key.pem');
  const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  openssl(['req', '-x509', ...EC_KEY, '-subj', '/CN=Test Certificate Authority', '-keyout', caKey, '-out', caCert]);
  let issued = 0;
  return {
    ca: readFileSync(caCert),
    issue(hostname) {
      issued += 1;
      const certFile = join(dir, `${issued}.pem`);
      const keyFile = join(dir, `${issued}-key.pem`);
      openssl([
        'req',
        '-x509',
        ...EC_KEY,
        '-CA',
        caCert,
        '-CAkey',
        caKey,
        '-subj',
        `/CN=${hostname}`,
        '-addext',
        `subjectAltName=DNS:${hostname}`,
        '-addext',
        'basicConstraints=critical,CA:FALSE',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ]);
      return { cert: readFileSync(certFile), key: readFileSync(keyFile) };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
