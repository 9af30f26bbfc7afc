/**
 * A throwaway self-signed certificate for localhost (openssl), for tests that start server.ts with
 * TLS_CERT_FILE/TLS_KEY_FILE and trust exactly that certificate.
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
