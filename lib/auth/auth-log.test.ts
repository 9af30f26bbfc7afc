/**
 * Auth.js errors in the log: the errors are made the way Auth.js makes them (a real session cookie
 * encoded with next-auth's own encoder, then tampered with or decoded under another secret, the decoder's
 * error wrapped in Auth.js's JWTSessionError), and classified as lib/auth/auth.ts's logger does.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CredentialsSignin, JWTSessionError } from '@auth/core/errors';
import { decode, encode } from 'next-auth/jwt';
import { authErrorLogEntry, UNREADABLE_SESSION_COOKIE } from './auth-log.ts';

const SALT = 'authjs.session-token';
const SECRET = 'a'.repeat(64);

/** Wraps an error as Auth.js's session action does (`new JWTSessionError(e)`; its typings take only a message). */
const asAuthJs = (error: Error) => new (JWTSessionError as unknown as new (cause: Error) => Error)(error);

/** What Auth.js logs when it cannot use a session cookie: its decoder's error, wrapped. */
async function sessionErrorFor(token: string, secret = SECRET): Promise<Error> {
  try {
    await decode({ token, secret, salt: SALT });
  } catch (error) {
    return asAuthJs(error as Error);
  }
  assert.fail('the token decoded');
}

test('a tampered, foreign or malformed session cookie is a warn with a code; the decoder says why', async () => {
  const token = await encode({ token: { sub: 'user-1' }, secret: SECRET, salt: SALT });
  const middle = Math.floor(token.length / 2);
  const tampered = token.slice(0, middle) + (token[middle] === 'A' ? 'B' : 'A') + token.slice(middle + 1);
  for (const [what, error] of [
    ['one character changed', await sessionErrorFor(tampered)],
    ['made under another AUTH_SECRET', await sessionErrorFor(token, 'b'.repeat(64))],
    ['not a token at all', await sessionErrorFor('garbage')],
  ] as const) {
    const entry = authErrorLogEntry(error);
    assert.equal(entry?.level, 'warn', what);
    assert.equal(entry?.fields.code, UNREADABLE_SESSION_COOKIE, what);
    assert.match(String(entry?.fields.reason), /^(JWE\w+: |Error: no matching decryption secret)/, what);
  }
});

test('a failure inside the session handling stays an error; a wrong password is not logged', () => {
  const entry = authErrorLogEntry(asAuthJs(new Error('the database went away')));
  assert.equal(entry?.level, 'error');
  assert.match(String(entry?.fields.error), /JWTSessionError.*the database went away/);
  assert.equal(authErrorLogEntry(new CredentialsSignin()), null);
});
