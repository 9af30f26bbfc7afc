/**
 * Cross-site request forgery, against the real production server. Auth.js's own form endpoints
 * (credentials sign-in, sign-out) need the double-submit CSRF token: without it, or with someone
 * else's, nothing happens. The portal's forms are server actions, accepted only from this origin: a
 * POST carrying another site's Origin changes nothing (no key created or disabled, nobody signed in or
 * out), even with an X-Forwarded-Host that names that site, since server.ts only lets a trusted proxy
 * set that header. server.ts refuses such a POST itself with a 403 (Next would throw: a 500), server
 * action or Auth.js form alike; the public leak report, which acts on no cookie, stays open to other
 * sites. Each refusal has a control: the same request done right works.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDb, type Db } from '../../lib/db/client.ts';
import { LEAK_REPORT_PATH } from '../../lib/http/cross-site.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import {
  CookieJar,
  callServerAction,
  csrfToken,
  formOf,
  postCredentials,
  serverActionIds,
  signInWithForm,
  type WebAnswer,
  webRequest,
} from '../support/web-client.ts';

const EMAIL = 'csrf-dev@example.test';
const PASSWORD = 'a long csrf test password';
const EVIL = 'https://evil.example';

let server: TestServer;
let db: Db;
let actions: Map<string, string>;

before(async () => {
  server = await startTestServer();
  const created = server.cli('user', 'create', '--email', EMAIL, '--password', PASSWORD);
  assert.equal(created.status, 0, created.stderr);
  db = createDb(server.env.DATABASE_URL);
  actions = serverActionIds();
});
after(async () => {
  await db?.$disconnect();
  await server?.stop();
});

const action = (name: string) => {
  const id = actions.get(name);
  assert.ok(id, `${name} is in the build's server actions`);
  return id;
};

/** Who the session cookie in the jar belongs to, per Auth.js (null: nobody). */
async function sessionEmail(jar: CookieJar): Promise<string | null> {
  const answer = await webRequest(`${server.baseUrl}/api/auth/session`, { headers: { cookie: jar.header() } });
  return (JSON.parse(answer.text) as { user?: { email?: string } } | null)?.user?.email ?? null;
}

/** server.ts refused the request before Next ran it: a 403 saying why, nothing revalidated or redirected. */
function assertActionRefused(answer: WebAnswer, what: string): void {
  assert.equal(answer.status, 403, what);
  assert.equal(JSON.parse(answer.text).error, 'cross_site_request', what);
  assert.equal(answer.headers['x-action-revalidated'], undefined, what);
  assert.equal(answer.headers['x-action-redirect'], undefined, what);
  assert.deepEqual(answer.setCookies, [], `${what}: no cookie set`);
}

describe("Auth.js's form endpoints need the CSRF token", () => {
  it('a credentials sign-in without the token, with a token of another browser, or without the cookie gets no session', async () => {
    const jar = new CookieJar();
    await csrfToken(server.baseUrl, jar);
    const otherToken = await csrfToken(server.baseUrl, new CookieJar());
    const attempts = [
      { what: 'no token', jar, token: undefined },
      { what: "another browser's token", jar, token: otherToken },
      { what: 'a token without its cookie', jar: new CookieJar(), token: otherToken },
    ];
    for (const attempt of attempts) {
      const answer = await postCredentials(server.baseUrl, attempt.jar, {
        email: EMAIL,
        password: PASSWORD,
        token: attempt.token,
      });
      assert.equal(answer.status, 302, attempt.what);
      assert.match(String(answer.headers.location), /\/signin\?error=MissingCSRF$/, attempt.what);
      assert.equal(attempt.jar.sessionCookie(), undefined, `${attempt.what}: no session cookie`);
    }
    // Control: the same form with the right token signs in.
    const signedIn = await signInWithForm(server.baseUrl, EMAIL, PASSWORD);
    assert.equal(await sessionEmail(signedIn.jar), EMAIL);
  });

  it('a sign-out without the token leaves the session alone; with it, the session ends', async () => {
    const { jar } = await signInWithForm(server.baseUrl, EMAIL, PASSWORD);
    const signOut = (token?: string) =>
      webRequest(`${server.baseUrl}/api/auth/signout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
        body: new URLSearchParams(token ? { csrfToken: token } : {}).toString(),
      });
    const forged = await signOut();
    assert.ok(
      !forged.setCookies.some((line) => line.startsWith('authjs.session-token=')),
      'the session cookie is not cleared',
    );
    assert.equal(await sessionEmail(jar), EMAIL);

    const real = await signOut(await csrfToken(server.baseUrl, jar));
    jar.take(real);
    assert.equal(jar.sessionCookie(), undefined, 'control: with the token, sign-out clears the session cookie');
  });
});

describe("server actions run only for this site's pages", () => {
  for (const spoofedHost of [false, true]) {
    const how = spoofedHost ? ' and an X-Forwarded-Host naming it' : '';
    it(`a key action posted with another site's Origin${how} creates and disables nothing`, async () => {
      const { jar } = await signInWithForm(server.baseUrl, EMAIL, PASSWORD);
      const forged = { origin: EVIL, headers: spoofedHost ? { 'x-forwarded-host': 'evil.example' } : undefined };
      const owner = await db.user.findUniqueOrThrow({ where: { email: EMAIL } });
      const keyCount = () => db.apiKey.count({ where: { ownerId: owner.id } });
      const before = await keyCount();

      const create = (origin?: string, headers?: Record<string, string>) =>
        callServerAction(server.baseUrl, {
          page: '/keys',
          actionId: action('app/keys/actions.ts#createKeyAction'),
          args: [null, formOf({ name: 'forged', expiry: '30' })],
          jar,
          origin,
          headers,
        });
      assertActionRefused(await create(forged.origin, forged.headers), 'forged create');
      assert.equal(await keyCount(), before, 'no key was created');
      const made = await create();
      assert.equal(made.headers['x-action-revalidated'], '1', 'control: from this site the action runs');
      assert.equal(await keyCount(), before + 1, 'control: the key was created');
      const key = await db.apiKey.findFirstOrThrow({ where: { ownerId: owner.id }, orderBy: { createdAt: 'desc' } });

      const disable = (origin?: string, headers?: Record<string, string>) =>
        callServerAction(server.baseUrl, {
          page: `/keys/${key.id}`,
          actionId: action('app/keys/actions.ts#disableKeyAction'),
          args: [null, formOf({ keyId: key.id, reason: 'forged' })],
          jar,
          origin,
          headers,
        });
      assertActionRefused(await disable(forged.origin, forged.headers), 'forged disable');
      assert.equal(
        (await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).disabledAt,
        null,
        'the key still works',
      );
      await disable();
      assert.notEqual(
        (await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).disabledAt,
        null,
        'control: from this site it is disabled',
      );
    });
  }

  it("the portal's sign-in and sign-out forms, posted from another site, sign nobody in or out", async () => {
    const signIn = (origin?: string) => {
      const jar = new CookieJar();
      return callServerAction(server.baseUrl, {
        page: '/signin',
        actionId: action('app/(auth)/actions.ts#signInAction'),
        args: [null, formOf({ email: EMAIL, password: PASSWORD, next: '/keys' })],
        jar,
        origin,
      }).then((answer) => ({ answer, jar }));
    };
    const forgedIn = await signIn(EVIL);
    assertActionRefused(forgedIn.answer, 'forged sign-in');
    assert.equal(
      forgedIn.jar.sessionCookie(),
      undefined,
      'no session cookie: nobody is signed in to the attacker’s account',
    );
    const realIn = await signIn();
    assert.equal(await sessionEmail(realIn.jar), EMAIL, 'control: from this site, sign-in works');

    const signOut = (origin?: string) =>
      callServerAction(server.baseUrl, {
        page: '/keys',
        actionId: action('app/(auth)/actions.ts#signOutAction'),
        args: [],
        jar: realIn.jar,
        origin,
      });
    assertActionRefused(await signOut(EVIL), 'forged sign-out');
    assert.equal(await sessionEmail(realIn.jar), EMAIL, 'still signed in');
    await signOut();
    assert.equal(realIn.jar.sessionCookie(), undefined, 'control: from this site, sign-out clears the session');
  });
});

describe('cross-site posts get a 403 from server.ts, not a 500 from Next', () => {
  it('an Origin of "null" or one that is not a URL is another site too', async () => {
    const { jar } = await signInWithForm(server.baseUrl, EMAIL, PASSWORD);
    for (const origin of ['null', 'not a url']) {
      const answer = await callServerAction(server.baseUrl, {
        page: '/keys',
        actionId: action('app/keys/actions.ts#createKeyAction'),
        args: [null, formOf({ name: 'forged', expiry: '30' })],
        jar,
        origin,
      });
      assertActionRefused(answer, `Origin: ${origin}`);
    }
  });

  it("Auth.js's sign-out, posted from another site with a valid token, is refused and the session stays", async () => {
    const { jar } = await signInWithForm(server.baseUrl, EMAIL, PASSWORD);
    const token = await csrfToken(server.baseUrl, jar);
    const signOut = (origin: string) =>
      webRequest(`${server.baseUrl}/api/auth/signout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header(), origin },
        body: new URLSearchParams({ csrfToken: token }).toString(),
      });
    assertActionRefused(await signOut(EVIL), 'forged Auth.js sign-out');
    assert.equal(await sessionEmail(jar), EMAIL, 'still signed in');
    jar.take(await signOut(new URL(server.baseUrl).origin));
    assert.equal(jar.sessionCookie(), undefined, 'control: from this site, sign-out clears the session');
  });

  it('the public leak report is still accepted from another site, and answers it no CORS headers', async () => {
    const answer = await webRequest(`${server.baseUrl}${LEAK_REPORT_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: EVIL },
      body: JSON.stringify({ secrets: ['not a key'], source: 'a cross-site test' }),
    });
    assert.equal(answer.status, 202, answer.text);
    assert.equal(answer.headers['access-control-allow-origin'], undefined);
  });
});

describe('behind a trusted proxy (TRUST_PROXY=1), the host is the one the proxy forwards', () => {
  let proxied: TestServer;
  before(async () => {
    proxied = await startTestServer({ TRUST_PROXY: '1' });
  });
  after(() => proxied?.stop());

  it("an action whose Origin is the forwarded host runs; another site's Origin is refused", async () => {
    const signIn = (origin: string) =>
      callServerAction(proxied.baseUrl, {
        page: '/signin',
        actionId: action('app/(auth)/actions.ts#signInAction'),
        args: [null, formOf({ email: EMAIL, password: 'wrong password', next: '/keys' })],
        jar: new CookieJar(),
        origin,
        headers: { 'x-forwarded-host': 'portal.example' },
      });
    assertActionRefused(await signIn(EVIL), 'another site through the proxy');
    const honest = await signIn('https://portal.example');
    assert.equal(honest.status, 200, 'control: the page the proxy serves may post');
    assert.match(honest.text, /Wrong email or password/, 'control: the action ran');
  });
});
