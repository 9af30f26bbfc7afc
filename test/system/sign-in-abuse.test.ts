/**
 * Sign-up and sign-in abuse, against the real production server behind a (pretend) proxy, so that one
 * test can act from many client addresses (TRUST_PROXY=1, X-Forwarded-For), through the portal's own
 * forms (server actions, as the browser posts them):
 * - one address cannot mint accounts: past SIGN_UPS_PER_HOUR (10) sign-ups are refused with when to
 *   retry, and nothing is written;
 * - sign-up says nothing about who has an account: an existing email gets the same answer as a new
 *   one, signs nobody in and leaves the account's password as it was;
 * - nobody can lock someone else out: guesses from one address lock that (email, address) pair only;
 *   guesses from many addresses slow down every browser except one that has signed in to the account
 *   before (its device cookie). Every refusal says when to try again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SECURE_DEVICE_COOKIE } from '../../lib/auth/device-cookie.ts';
import { SIGNED_UP_MESSAGE, SIGNED_UP_NOTICE } from '../../lib/auth/sign-up-notice.ts';
import { createDb, type Db } from '../../lib/db/client.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import {
  CookieJar,
  callServerAction,
  formOf,
  parseSetCookie,
  serverActionIds,
  type WebAnswer,
} from '../support/web-client.ts';

const PASSWORD = 'a long abuse test password';
const WRONG = /Wrong email or password\./;
const LOCKED = /Too many failed sign-ins\. Try again in (\d+) minutes?, or ask support to help you in\./;

let server: TestServer;
let db: Db;
let actions: Map<string, string>;

before(async () => {
  server = await startTestServer({ TRUST_PROXY: '1' });
  db = createDb(server.env.DATABASE_URL);
  actions = serverActionIds();
});
after(async () => {
  await db?.$disconnect();
  await server?.stop();
});

let nextAddress = 1;
/** An address no other test uses (RFC 5737 documentation range), as the proxy reports it, over HTTPS. */
function freshAddress(): string {
  return `198.51.100.${nextAddress++}`;
}

function post(
  action: string,
  page: string,
  address: string,
  fields: Record<string, string>,
  jar = new CookieJar(),
): Promise<WebAnswer> {
  return callServerAction(server.baseUrl, {
    page,
    actionId: actions.get(`app/(auth)/actions.ts#${action}`)!,
    args: [null, formOf(fields)],
    jar,
    headers: { 'x-forwarded-for': address, 'x-forwarded-proto': 'https' },
  });
}

const signUp = (address: string, email: string, password = PASSWORD) =>
  post('signUpAction', '/signup', address, { name: '', email, password, confirm: password });

/** A sign-in through the portal's form: 'signed in' (with a session cookie), or the message shown. */
async function signIn(address: string, email: string, password: string, jar = new CookieJar()): Promise<string> {
  const answer = await post('signInAction', '/signin', address, { email, password, next: '/keys' }, jar);
  if (jar.sessionCookie()) {
    assert.match(String(answer.headers['x-action-redirect']), /\/keys;/);
    return 'signed in';
  }
  const message = [WRONG, LOCKED].map((pattern) => pattern.exec(answer.text)?.[0]).find(Boolean);
  assert.ok(message, `a sign-in message in ${answer.text.slice(0, 300)}`);
  return message;
}

/** The answer a sign-up gives, as the person sees it: where it goes, what it sets, what it says. */
function outcome(answer: WebAnswer) {
  return {
    status: answer.status,
    redirect: answer.headers['x-action-redirect'],
    cookies: answer.setCookies.map((line) => parseSetCookie(line).name).sort(),
  };
}

describe('sign-up', () => {
  it('one address gets 10 sign-ups an hour; the 11th and later are refused with when to retry, and write nothing', async () => {
    const address = freshAddress();
    const emails = Array.from({ length: 30 }, (_, i) => `bulk${i}@example.test`);
    for (const [i, email] of emails.entries()) {
      const answer = await signUp(address, email);
      if (i < 10) {
        assert.match(
          String(answer.headers['x-action-redirect']),
          new RegExp(`^/signin\\?notice=${SIGNED_UP_NOTICE};`),
          email,
        );
      } else {
        assert.equal(answer.headers['x-action-redirect'], undefined, email);
        assert.match(answer.text, /Too many sign-ups from your network address\. Try again in (\d+) minutes?\./, email);
      }
    }
    const created = await db.user.findMany({ where: { email: { in: emails } }, select: { email: true } });
    assert.deepEqual(created.map((user) => user.email).sort(), emails.slice(0, 10).sort());
    // Another address is not affected.
    assert.match(
      String((await signUp(freshAddress(), 'bulk-other@example.test')).headers['x-action-redirect']),
      /^\/signin\?notice=/,
    );
  });

  it('an existing email gets the same answer as a new one, nobody is signed in, and its password is unchanged', async () => {
    const address = freshAddress();
    const fresh = await signUp(address, 'brand-new@example.test', 'the new account password');
    const existing = await signUp(address, server.adminEmail.toUpperCase(), 'an attacker chosen password');
    assert.deepEqual(outcome(existing), outcome(fresh));
    // Only the email typed, for the sign-in form that follows (lib/auth/signed-up-email.ts): no session, no device cookie.
    assert.deepEqual(outcome(existing).cookies, ['__Secure-chemflow-signed-up-email'], 'sign-up signs nobody in');
    assert.doesNotMatch(existing.text, /exist|already|taken|registered/i);
    assert.ok(
      !String(existing.headers['x-action-redirect']).includes('example.test'),
      'the email is not in the address',
    );

    const page = await fetch(`${server.baseUrl}/signin?notice=${SIGNED_UP_NOTICE}`);
    assert.ok(
      (await page.text()).includes(SIGNED_UP_MESSAGE.replaceAll("'", '&#x27;')),
      'the sign-in page shows the notice',
    );

    assert.equal(
      await signIn(freshAddress(), server.adminEmail, 'an attacker chosen password'),
      'Wrong email or password.',
    );
    assert.equal(await signIn(freshAddress(), server.adminEmail, server.adminPassword!), 'signed in');
    assert.equal(await signIn(freshAddress(), 'brand-new@example.test', 'the new account password'), 'signed in');

    const admin = await db.user.findUniqueOrThrow({ where: { email: server.adminEmail } });
    const audit = await db.auditEvent.findMany({ where: { targetUserId: admin.id, action: 'user.signup-existing' } });
    assert.equal(audit.length, 1, 'the attempt is audited on the account');
    assert.equal(audit[0].ip, address);
    assert.ok(!JSON.stringify(audit).includes('attacker chosen'), 'without the password');
    assert.ok(!server.output().includes('attacker chosen'), 'and not logged');
  });
});

describe('failed sign-ins lock the guesser, not the account', () => {
  it('guesses for admin from one address lock that address for admin only; admin signs in from elsewhere', async () => {
    const attacker = freshAddress();
    for (let i = 0; i < 5; i++)
      assert.equal(await signIn(attacker, server.adminEmail, `guess ${i}`), 'Wrong email or password.');
    for (let i = 5; i < 8; i++) assert.match(await signIn(attacker, server.adminEmail, `guess ${i}`), LOCKED);
    const locked = await signIn(attacker, server.adminEmail, server.adminPassword!);
    assert.match(locked, LOCKED, 'the right password from the guessing address is refused too');
    assert.ok(Number(LOCKED.exec(locked)![1]) >= 14 && Number(LOCKED.exec(locked)![1]) <= 15, locked);

    assert.equal(
      await signIn(freshAddress(), server.adminEmail, server.adminPassword!),
      'signed in',
      'admin, from another address',
    );
    assert.equal(
      await signIn(attacker, 'someone-else@example.test', 'a guess'),
      'Wrong email or password.',
      'other accounts from that address',
    );
  });

  it('guesses from many addresses slow down new browsers, but the owner signs in from a browser used before', async () => {
    const owner = 'owner@example.test';
    const ownerPassword = 'the owner password here';
    assert.equal(server.cli('user', 'create', '--email', owner, '--password', ownerPassword).status, 0);
    const home = new CookieJar();
    assert.equal(await signIn(freshAddress(), owner, ownerPassword, home), 'signed in');
    const device = home.values.get(SECURE_DEVICE_COOKIE);
    assert.ok(device, 'the form sign-in set the device cookie');

    for (let i = 0; i < 10; i++)
      assert.equal(await signIn(freshAddress(), owner, `guess ${i}`), 'Wrong email or password.', `guess ${i}`);
    assert.match(await signIn(freshAddress(), owner, 'guess 10'), LOCKED, 'the 11th guess, from yet another address');
    assert.match(
      await signIn(freshAddress(), owner, ownerPassword),
      LOCKED,
      'a browser never signed in to the account waits',
    );

    const knownBrowser = new CookieJar();
    knownBrowser.values.set(SECURE_DEVICE_COOKIE, device);
    assert.equal(
      await signIn(freshAddress(), owner, ownerPassword, knownBrowser),
      'signed in',
      'the owner, from the browser used before, on another network',
    );

    // Someone else's device cookie, or a forged one, does not help.
    const adminBrowser = new CookieJar();
    assert.equal(await signIn(freshAddress(), server.adminEmail, server.adminPassword!, adminBrowser), 'signed in');
    for (const forged of [
      adminBrowser.values.get(SECURE_DEVICE_COOKIE)!,
      `${device.split('.')[0]}.${'A'.repeat(43)}`,
      'garbage',
    ]) {
      const jar = new CookieJar();
      jar.values.set(SECURE_DEVICE_COOKIE, forged);
      assert.match(await signIn(freshAddress(), owner, ownerPassword, jar), LOCKED, forged);
    }
  });

  it('the device cookie is HttpOnly, SameSite=Lax, Secure over HTTPS, for about 90 days, and names no account', async () => {
    const answer = await post('signInAction', '/signin', freshAddress(), {
      email: server.adminEmail,
      password: server.adminPassword!,
      next: '/keys',
    });
    const line = answer.setCookies.find((cookie) => cookie.startsWith(`${SECURE_DEVICE_COOKIE}=`));
    assert.ok(line, 'set on a successful sign-in');
    const cookie = parseSetCookie(line);
    assert.ok(cookie.attributes.has('httponly'));
    assert.ok(cookie.attributes.has('secure'));
    assert.equal(cookie.attributes.get('samesite')?.toLowerCase(), 'lax');
    assert.equal(cookie.attributes.get('path'), '/');
    assert.equal(Number(cookie.attributes.get('max-age')), 90 * 24 * 3600);
    const admin = await db.user.findUniqueOrThrow({ where: { email: server.adminEmail } });
    assert.ok(!cookie.value.includes(admin.id) && !cookie.value.includes('admin'));
  });
});
