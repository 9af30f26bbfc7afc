/**
 * Return addresses (next, callbackUrl) an attacker would try, for the unit test of safeReturnPath and
 * the tests that send them to the real server, and the check of what comes back.
 */
import assert from 'node:assert/strict';
import { MAX_RETURN_PATH_LENGTH } from '../../lib/auth/return-path.ts';

export const SECRET_IN_PATH = `cf_${'A1b2C3d4E5'.repeat(3)}abcdefgh`;

/** Values that must never send anyone off the site (as the server receives them, already URL-decoded once). */
export const HOSTILE_RETURN_PATHS: readonly string[] = [
  '//evil.example/',
  '///evil.example/',
  '/\\evil.example/',
  '\\\\evil.example/',
  '/%5Cevil.example/',
  '/%5cevil.example/',
  '/%255Cevil.example/',
  '/%2F/evil.example',
  '/%2f%2fevil.example',
  '/%252F%252Fevil.example',
  '/\t/evil.example',
  '/%09/evil.example',
  '/\n/evil.example',
  '/%0a/evil.example',
  '/%0d%0aSet-Cookie:%20stolen=1',
  '/\r\nSet-Cookie: stolen=1',
  '/\u0000/evil.example',
  '/\u200b/evil.example',
  '/\u2028/evil.example',
  '/.//evil.example',
  '/%2e//evil.example',
  '/x/../..//evil.example',
  ' //evil.example',
  'https://evil.example/',
  'HTTPS://evil.example/',
  'http:evil.example',
  'http:/evil.example',
  '//evil.example@chemflow.example/',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  '/%',
  '/%E0%A4%A',
  'evil.example',
  '',
  `/${'x'.repeat(MAX_RETURN_PATH_LENGTH)}`,
  `/keys/${SECRET_IN_PATH}`,
  `/keys?pasted=${SECRET_IN_PATH}`,
  `/keys/${encodeURIComponent(SECRET_IN_PATH).replace('_', '%5F')}`,
];

/** What a browser does with a Location header holding `path`: it must stay on the site, unchanged. */
export function assertStaysOnSite(path: string, what: string, site = 'https://chemflow.example'): void {
  assert.doesNotMatch(
    path,
    /[\\\p{Cc}\p{Cf}\u2028\u2029]/u,
    `${what}: no backslash or control character in ${JSON.stringify(path)}`,
  );
  assert.ok(path.startsWith('/') && !path.startsWith('//'), `${what}: ${JSON.stringify(path)} is a path`);
  assert.equal(new URL(path, site).origin, site, `${what}: ${JSON.stringify(path)} stays on the site`);
  assert.ok(!path.includes(SECRET_IN_PATH.slice(0, 20)), `${what}: no secret in ${JSON.stringify(path)}`);
}

/**
 * What a browser does with a Location header of the server at `baseUrl` (a path, or an absolute URL):
 * it must stay on the site, and the header hold no backslash, control character or secret.
 */
export function assertLocationOnSite(location: string | undefined, baseUrl: string, what: string): void {
  assert.ok(location, `${what}: a Location header`);
  assert.doesNotMatch(
    location,
    /[\\\p{Cc}\p{Cf}\u2028\u2029]/u,
    `${what}: no backslash or control character in ${JSON.stringify(location)}`,
  );
  assert.equal(
    new URL(location, baseUrl).origin,
    new URL(baseUrl).origin,
    `${what}: ${JSON.stringify(location)} stays on the site`,
  );
  assert.ok(!location.includes(SECRET_IN_PATH.slice(0, 20)), `${what}: no secret in ${JSON.stringify(location)}`);
}
