/**
 * Auth.js's cookies on the real production server. Over HTTPS (served by server.ts, or behind a
 * trusted proxy) the session, CSRF and callback cookies are Secure, HttpOnly and SameSite=Lax, with the
 * __Secure- / __Host- prefixes; over plain HTTP on localhost (the quick start) they are the same minus
 * Secure and the prefixes, and signing in still works. Both ways of signing in are checked: the portal's
 * form (a server action) and Auth.js's own form endpoint. What a client claims in X-Forwarded-Proto
 * decides nothing unless TRUST_PROXY=1.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { selfSignedCertificate, type TestCertificate } from '../support/tls.ts';
import {
  CookieJar,
  callServerAction,
  formOf,
  parseSetCookie,
  type SetCookie,
  serverActionIds,
  signInWithForm,
  webRequest,
} from '../support/web-client.ts';

const EMAIL = 'cookie-test@example.test';
const PASSWORD = 'a long cookie test password';

interface Client {
  ca?: Buffer;
  /** Headers every request carries (a proxy's X-Forwarded-*). */
  headers?: Record<string, string>;
}

function createUser(server: TestServer): void {
  const created = server.cli('user', 'create', '--email', EMAIL, '--password', PASSWORD);
  assert.equal(created.status, 0, created.stderr);
}

function cookiesNamed(lines: string[]): Map<string, SetCookie> {
  return new Map(lines.map(parseSetCookie).map((cookie) => [cookie.name, cookie]));
}

/** The flags every Auth.js cookie must have, and Secure exactly when the connection is HTTPS. */
function assertFlags(cookie: SetCookie | undefined, name: string, { secure }: { secure: boolean }): void {
  assert.ok(cookie, `a ${name} cookie is set`);
  assert.ok(cookie.attributes.has('httponly'), `${name} is HttpOnly`);
  assert.equal(cookie.attributes.get('samesite')?.toLowerCase(), 'lax', `${name} is SameSite=Lax`);
  assert.equal(cookie.attributes.get('path'), '/', `${name} has Path=/`);
  assert.equal(cookie.attributes.has('secure'), secure, `${name} is ${secure ? '' : 'not '}Secure`);
}

/** Signs in through the portal's sign-in form (its server action), as the browser does. */
async function signInThroughPortal(server: TestServer, client: Client) {
  const jar = new CookieJar();
  const answer = await callServerAction(server.baseUrl, {
    page: '/signin',
    actionId: serverActionIds().get('app/(auth)/actions.ts#signInAction')!,
    args: [null, formOf({ email: EMAIL, password: PASSWORD, next: '/keys' })],
    jar,
    ca: client.ca,
    headers: client.headers,
  });
  const next = String(answer.headers['x-action-redirect']).split(';', 1)[0];
  assert.equal(new URL(next, server.baseUrl).pathname, '/keys', 'signed in, the action sends the browser on to /keys');
  return { jar, answer };
}

/** The session the jar holds is good: Auth.js knows the user and /keys opens. */
async function assertSignedIn(server: TestServer, jar: CookieJar, client: Client): Promise<void> {
  const session = await webRequest(`${server.baseUrl}/api/auth/session`, {
    headers: { cookie: jar.header(), ...client.headers },
    ca: client.ca,
  });
  assert.equal(JSON.parse(session.text)?.user?.email, EMAIL);
  const keys = await webRequest(`${server.baseUrl}/keys`, {
    headers: { cookie: jar.header(), ...client.headers },
    ca: client.ca,
  });
  assert.equal(keys.status, 200);
}

function describeSecureCookies(
  title: string,
  start: () => Promise<{ server: TestServer; client: Client; cleanup?: () => void }>,
) {
  describe(title, () => {
    let server: TestServer;
    let client: Client;
    let cleanup: (() => void) | undefined;
    before(async () => {
      ({ server, client, cleanup } = await start());
      createUser(server);
    });
    after(async () => {
      await server?.stop();
      cleanup?.();
    });

    it("Auth.js's own form: a __Host- CSRF cookie and a __Secure- session cookie, every cookie Secure, HttpOnly, SameSite=Lax", async () => {
      const csrf = await webRequest(`${server.baseUrl}/api/auth/csrf`, { headers: client.headers, ca: client.ca });
      const { jar, answer } = await signInWithForm(server.baseUrl, EMAIL, PASSWORD, client);
      const cookies = cookiesNamed([...csrf.setCookies, ...answer.setCookies]);
      assert.ok(
        cookies.has('__Host-authjs.csrf-token') && cookies.has('__Secure-authjs.session-token'),
        [...cookies.keys()].join(', '),
      );
      assert.equal(
        cookies.get('__Host-authjs.csrf-token')!.attributes.has('domain'),
        false,
        '__Host- cookies have no Domain',
      );
      assert.ok(
        cookies.has('__Host-chemflow-device'),
        `the device cookie (sign-in throttle) is __Host- too: ${[...cookies.keys()].join(', ')}`,
      );
      assert.equal(
        cookies.get('__Host-chemflow-device')!.attributes.has('domain'),
        false,
        '__Host- cookies have no Domain',
      );
      for (const [name, cookie] of cookies) {
        assert.match(name, /^__(Host|Secure)-(authjs\.|chemflow-device$)/, 'every cookie has a prefix');
        assertFlags(cookie, name, { secure: true });
      }
      await assertSignedIn(server, jar, client);
    });

    it("the portal's sign-in form sets the same __Secure- session cookie", async () => {
      const { jar, answer } = await signInThroughPortal(server, client);
      assertFlags(
        cookiesNamed(answer.setCookies).get('__Secure-authjs.session-token'),
        '__Secure-authjs.session-token',
        { secure: true },
      );
      await assertSignedIn(server, jar, client);
    });
  });
}

describeSecureCookies('over HTTPS served by server.ts', async () => {
  const certificate: TestCertificate = selfSignedCertificate();
  // A client's claim of plain HTTP must not turn Secure off: only the socket counts without TRUST_PROXY.
  return {
    server: await startTestServer(certificate.env),
    client: { ca: certificate.cert, headers: { 'x-forwarded-proto': 'http' } },
    cleanup: certificate.remove,
  };
});

describeSecureCookies('behind a TLS-terminating proxy (TRUST_PROXY=1, X-Forwarded-Proto: https)', async () => ({
  server: await startTestServer({ TRUST_PROXY: '1' }),
  client: { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' } },
}));

describe('over plain HTTP on localhost (the quick start)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    createUser(server);
  });
  after(async () => server?.stop());

  // A client claiming HTTPS without TRUST_PROXY changes nothing: the cookies stay the plain-HTTP ones.
  for (const client of [{}, { headers: { 'x-forwarded-proto': 'https' } }] as Client[]) {
    const claim = client.headers ? ' (the client claims X-Forwarded-Proto: https)' : '';
    it(`cookies are HttpOnly and SameSite=Lax but not Secure, and signing in works${claim}`, async () => {
      const { jar, answer } = await signInWithForm(server.baseUrl, EMAIL, PASSWORD, client);
      const cookies = cookiesNamed(answer.setCookies);
      assertFlags(cookies.get('authjs.session-token'), 'authjs.session-token', { secure: false });
      assert.ok(jar.values.has('authjs.csrf-token'));
      await assertSignedIn(server, jar, client);

      const portal = await signInThroughPortal(server, client);
      assertFlags(cookiesNamed(portal.answer.setCookies).get('authjs.session-token'), 'authjs.session-token', {
        secure: false,
      });
      await assertSignedIn(server, portal.jar, client);
    });
  }
});
