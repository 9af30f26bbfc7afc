/**
 * safeReturnPath, the one check on every return address (next, callbackUrl): a table of disguised
 * ways to leave the site, each answered with the default, and what a browser would make of every
 * answer: same site, no backslash or control character, no secret. Paths of the site keep working.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertStaysOnSite, HOSTILE_RETURN_PATHS } from '../../test/support/hostile-return-paths.ts';
import { DEFAULT_RETURN_PATH, MAX_RETURN_PATH_LENGTH, safeReturnPath } from './return-path.ts';

test('disguised ways off the site, control characters, secrets and overlong values all give the default', () => {
  for (const raw of HOSTILE_RETURN_PATHS) {
    const answer = safeReturnPath(raw);
    assertStaysOnSite(answer, JSON.stringify(raw));
    assert.equal(answer, DEFAULT_RETURN_PATH, JSON.stringify(raw));
  }
});

test('what is not text gives the default', () => {
  for (const raw of [undefined, null, 7, ['/keys', '//evil.example'], { toString: () => '/keys' }]) {
    assert.equal(safeReturnPath(raw), DEFAULT_RETURN_PATH, String(raw));
  }
});

test("the site's own paths come back, normalised as a browser sends them", () => {
  const cases: [string, string][] = [
    ['/keys', '/keys'],
    ['/', '/'],
    ['/keys/ck0abc123?tab=usage#today', '/keys/ck0abc123?tab=usage#today'],
    ['/support/keys/ck0abc123', '/support/keys/ck0abc123'],
    ['/docs#service_formula_info', '/docs#service_formula_info'],
    ['/keys/../account', '/account'],
    ['/search?q=a b', '/search?q=a%20b'],
    ['/\u2215\u2215evil.example', '/%E2%88%95%E2%88%95evil.example'],
    ['/\uff0f\uff0fevil.example', '/%EF%BC%8F%EF%BC%8Fevil.example'],
    ['/keys?next=%2F%2Fevil.example', '/keys?next=%2F%2Fevil.example'],
    [`/${'x'.repeat(MAX_RETURN_PATH_LENGTH - 1)}`, `/${'x'.repeat(MAX_RETURN_PATH_LENGTH - 1)}`],
  ];
  for (const [raw, expected] of cases) {
    const answer = safeReturnPath(raw);
    assert.equal(answer, expected, JSON.stringify(raw));
    assertStaysOnSite(answer, JSON.stringify(raw));
  }
});
