/**
 * Open redirects, against the real production server: every hostile return address of
 * test/support/hostile-return-paths.ts, sent where the portal takes one (the signed-in user's
 * /signin?next=, the sign-in form's server action, Auth.js's callbackUrl on sign-in and sign-out),
 * gets a Location on this site with no backslash or control character. Controls: a path of the site
 * comes back as sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertLocationOnSite, HOSTILE_RETURN_PATHS } from '../support/hostile-return-paths.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import {
  CookieJar,
  callServerAction,
  csrfToken,
  formOf,
  serverActionIds,
  signInWithForm,
  webRequest,
} from '../support/web-client.ts';

const EMAIL = 'redirect-dev@example.test';
const PASSWORD = 'a long redirect test password';
const OWN_PATH = '/keys/ck0abc123?tab=usage#today';

let server: TestServer;
let signedIn: CookieJar;

before(async () => {
  server = await startTestServer();
  const created = server.cli('user', 'create', '--email', EMAIL, '--password', PASSWORD);
  assert.equal(created.status, 0, created.stderr);
  ({ jar: signedIn } = await signInWithForm(server.baseUrl, EMAIL, PASSWORD));
});
after(() => server?.stop());

/** A query parameter as a link carries it: the value percent-encoded once. */
const query = (name: string, value: string) => `${name}=${encodeURIComponent(value)}`;

describe('a signed-in user opening /signin?next=… is sent on within the site', () => {
  for (const next of HOSTILE_RETURN_PATHS) {
    it(JSON.stringify(next).slice(0, 80), async () => {
      const answer = await webRequest(`${server.baseUrl}/signin?${query('next', next)}`, {
        headers: { cookie: signedIn.header() },
      });
      assert.equal(answer.status, 307);
      assertLocationOnSite(answer.headers.location, server.baseUrl, JSON.stringify(next));
    });
  }
  it('control: a path of the site is where the user goes', async () => {
    const answer = await webRequest(`${server.baseUrl}/signin?${query('next', OWN_PATH)}`, {
      headers: { cookie: signedIn.header() },
    });
    assert.equal(answer.headers.location, OWN_PATH);
  });
});

describe("the sign-in form's action returns within the site whatever next it is posted", () => {
  const signInAction = () => serverActionIds().get('app/(auth)/actions.ts#signInAction')!;
  const post = (next: string) =>
    callServerAction(server.baseUrl, {
      page: '/signin',
      actionId: signInAction(),
      args: [null, formOf({ email: EMAIL, password: PASSWORD, next })],
      jar: new CookieJar(),
    });
  /** Next's redirect header: "<url>;push" or "<url>;replace". */
  const target = (header: string | string[] | undefined) => String(header ?? '').replace(/;(push|replace)$/, '');

  for (const next of HOSTILE_RETURN_PATHS) {
    it(JSON.stringify(next).slice(0, 80), async () => {
      const answer = await post(next);
      assertLocationOnSite(target(answer.headers['x-action-redirect']), server.baseUrl, JSON.stringify(next));
    });
  }
  it('control: a path of the site is where the user goes', async () => {
    assert.equal(target((await post(OWN_PATH)).headers['x-action-redirect']), `${server.baseUrl}${OWN_PATH}`);
  });
});

describe("Auth.js's callbackUrl stays within the site", () => {
  async function credentials(callbackUrl: string) {
    const jar = new CookieJar();
    const csrf = await csrfToken(server.baseUrl, jar);
    return webRequest(`${server.baseUrl}/api/auth/callback/credentials`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
      body: new URLSearchParams({ csrfToken: csrf, email: EMAIL, password: PASSWORD, callbackUrl }).toString(),
    });
  }
  async function signOut(callbackUrl: string) {
    const { jar } = await signInWithForm(server.baseUrl, EMAIL, PASSWORD);
    const csrf = await csrfToken(server.baseUrl, jar);
    return webRequest(`${server.baseUrl}/api/auth/signout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
      body: new URLSearchParams({ csrfToken: csrf, callbackUrl }).toString(),
    });
  }
  const absolute = (path: string) => `${server.baseUrl}${path}`;

  for (const path of HOSTILE_RETURN_PATHS) {
    it(`sign-in, ${JSON.stringify(path).slice(0, 80)}, as sent and after the site's origin`, async () => {
      for (const callbackUrl of path.startsWith('/') ? [path, absolute(path)] : [path]) {
        const answer = await credentials(callbackUrl);
        assert.equal(answer.status, 302);
        assertLocationOnSite(answer.headers.location, server.baseUrl, JSON.stringify(callbackUrl));
      }
    });
  }
  it('sign-out, every hostile value', async () => {
    for (const callbackUrl of HOSTILE_RETURN_PATHS) {
      const answer = await signOut(callbackUrl);
      assert.equal(answer.status, 302);
      assertLocationOnSite(answer.headers.location, server.baseUrl, JSON.stringify(callbackUrl));
    }
  });
  it('control: a path of the site, relative or absolute, is where the user goes', async () => {
    assert.equal((await credentials(OWN_PATH)).headers.location, absolute(OWN_PATH));
    assert.equal((await credentials(absolute(OWN_PATH))).headers.location, absolute(OWN_PATH));
    assert.equal((await signOut('/docs')).headers.location, absolute('/docs'));
  });
});

describe("the sign-in page shows Auth.js's error codes, not text from the address", () => {
  it('an error code is named; markup or a secret in ?error= is not shown', async () => {
    const code = await webRequest(`${server.baseUrl}/signin?error=AccessDenied`);
    // React separates the text parts with <!-- --> in the HTML.
    assert.match(code.text, /Sign-in did not complete \((<!-- -->)?AccessDenied(<!-- -->)?\)/);
    const hostile = `<b>Call us on +1 555 0100</b> cf_${'Q'.repeat(38)}`;
    const answer = await webRequest(`${server.baseUrl}/signin?${query('error', hostile)}`);
    assert.equal(answer.status, 200);
    assert.match(answer.text, /Sign-in did not complete \((<!-- -->)?unknown(<!-- -->)?\)/);
    // (Next's own flight data carries the requested URL; what matters is what the page shows.)
    const alert = /<p class="alert error"[^>]*>(.*?)<\/p>/.exec(answer.text)?.[1] ?? '';
    assert.doesNotMatch(alert, /555 0100|cf_Q{9}|<b>/);
  });
});
