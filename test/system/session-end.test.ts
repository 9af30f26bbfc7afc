/**
 * Ending sessions, over HTTP against the real production server. A copy of a session cookie (what a
 * thief or a shared computer keeps) must stop working everywhere once its owner signs out or changes
 * the password: pages send it to sign in, the live-usage JSON routes answer as for the signed out, the
 * server actions change nothing, and Auth.js's own session endpoint knows no user. The browser that
 * changed the password stays signed in; the operator's `user password` ends every session too. Guesses
 * of the current password on the account page are throttled like sign-ins.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDb, type Db } from '../../lib/db/client.ts';
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

const PASSWORD = 'a long session test password';
const NEW_PASSWORD = 'another long session password';

let server: TestServer;
let db: Db;
/** Ada's key (a developer) and its live-usage routes: hers, and the support console's. */
let keyId: string;

before(async () => {
  server = await startTestServer();
  db = createDb(server.env.DATABASE_URL);
  for (const name of ['ada', 'cy', 'eve'])
    server.cliOk('user', 'create', '--email', `${name}@example.test`, '--password', PASSWORD);
  server.cliOk('user', 'create', '--email', 'grace@example.test', '--password', PASSWORD, '--role', 'support');
  keyId = JSON.parse(server.cliOk('key', 'create', '--owner', 'ada@example.test', '--name', 'ada laptop', '--json')).id;
});
after(async () => {
  await db?.$disconnect();
  await server?.stop();
});

const copyOf = (jar: CookieJar): CookieJar => {
  const copy = new CookieJar();
  for (const [name, value] of jar.values) copy.values.set(name, value);
  return copy;
};

const get = (path: string, jar: CookieJar) =>
  webRequest(`${server.baseUrl}${path}`, { headers: { cookie: jar.header() } });

let actionIds: Map<string, string> | undefined;
function act(action: string, jar: CookieJar, page: string, fields: Record<string, string>): Promise<WebAnswer> {
  actionIds ??= serverActionIds();
  const actionId = actionIds.get(action);
  assert.ok(actionId, `${action} is in the build`);
  return callServerAction(server.baseUrl, { page, actionId, args: [null, formOf(fields)], jar });
}

const signOut = (jar: CookieJar) => act('app/(auth)/actions.ts#signOutAction', jar, '/keys', {});
const changePassword = (jar: CookieJar, current: string, next = NEW_PASSWORD) =>
  act('app/account/actions.ts#changePasswordAction', jar, '/account', { current, next, confirm: next });

/** The signed-in pages and data of each kind of user: a developer's key page and live usage, the support console's. */
const AREAS = {
  ada: { page: `/keys`, usage: () => `/api/portal/keys/${keyId}/usage` },
  grace: { page: '/support', usage: () => `/api/support/keys/${keyId}/usage` },
} as const;

async function assertSignedIn(jar: CookieJar, who: keyof typeof AREAS, what: string): Promise<void> {
  const page = await get(AREAS[who].page, jar);
  assert.equal(
    page.status,
    200,
    `${what}: ${AREAS[who].page} opens (answer ${page.status} ${page.headers.location ?? ''})`,
  );
  const usage = await get(AREAS[who].usage(), jar);
  assert.equal(usage.status, 200, `${what}: the live usage answers`);
  assert.equal(JSON.parse(usage.text).id, keyId);
}

/** Signed out everywhere: pages redirect to sign-in, JSON routes and actions answer as signed out, Auth.js knows no user, actions change nothing. */
async function assertSignedOut(jar: CookieJar, who: keyof typeof AREAS, what: string): Promise<void> {
  const page = await get(AREAS[who].page, jar);
  assert.ok(page.status >= 300 && page.status < 400, `${what}: ${AREAS[who].page} redirects (answer ${page.status})`);
  assert.equal(new URL(String(page.headers.location), server.baseUrl).pathname, '/signin', `${what}: sent to sign in`);
  const account = await get('/account', jar);
  assert.equal(
    new URL(String(account.headers.location), server.baseUrl).pathname,
    '/signin',
    `${what}: /account sends to sign in`,
  );

  const usage = await get(AREAS[who].usage(), jar);
  assert.equal(
    usage.status,
    404,
    `${what}: the live usage answers as for the signed out (the same 404 as an unknown key)`,
  );
  assert.doesNotMatch(usage.text, /ada laptop/);

  const session = await get('/api/auth/session', jar);
  assert.equal(
    JSON.parse(session.text)?.user ?? null,
    null,
    `${what}: Auth.js's session endpoint knows no user (${session.text})`,
  );

  const before = await db.apiKey.findUniqueOrThrow({ where: { id: keyId }, select: { name: true, disabledAt: true } });
  const rename = await act('app/keys/actions.ts#renameKeyAction', copyOf(jar), `/keys/${keyId}`, {
    keyId,
    name: 'renamed with a dead cookie',
  });
  assert.match(
    rename.text,
    /"signedOut":true,"error":"You were signed out; the key was not renamed\."/,
    `${what}: a server action answers that the session ended`,
  );
  const disable = await act('app/keys/actions.ts#disableKeyAction', copyOf(jar), `/keys/${keyId}`, {
    keyId,
    reason: 'with a dead cookie',
  });
  assert.match(
    disable.text,
    /"signedOut":true,"error":"You were signed out; the key was not disabled\."/,
    `${what}: a server action answers that the session ended`,
  );
  assert.deepEqual(
    await db.apiKey.findUniqueOrThrow({ where: { id: keyId }, select: { name: true, disabledAt: true } }),
    before,
    `${what}: the actions changed nothing`,
  );
}

const sessionVersion = async (email: string) => (await db.user.findUniqueOrThrow({ where: { email } })).sessionVersion;

describe('sign-out ends every session of the account', () => {
  for (const who of ['ada', 'grace'] as const) {
    it(`${who}: a copy of the cookie, and the session on another device, stop working; signing in again works`, async () => {
      const email = `${who}@example.test`;
      const { jar } = await signInWithForm(server.baseUrl, email, PASSWORD);
      const { jar: otherDevice } = await signInWithForm(server.baseUrl, email, PASSWORD);
      const copy = copyOf(jar);
      await assertSignedIn(copy, who, 'before sign-out, the copy');

      const out = await signOut(jar);
      assert.equal(
        new URL(String(out.headers['x-action-redirect']).split(';', 1)[0], server.baseUrl).pathname,
        '/',
        'signed out, the browser goes home',
      );
      assert.equal(jar.sessionCookie(), undefined, 'the browser that signed out dropped its cookie');

      await assertSignedOut(copy, who, 'the copied cookie');
      await assertSignedOut(otherDevice, who, 'the other device');
      // The dead copy cannot sign out the account's next session (it is no longer current).
      const { jar: fresh } = await signInWithForm(server.baseUrl, email, PASSWORD);
      await signOut(copyOf(copy));
      await assertSignedIn(fresh, who, 'a new sign-in, after the dead copy signed out');
    });
  }
});

describe('a password change ends every other session; the browser that changed it stays signed in', () => {
  it('the other device and the old cookie are signed out, the new password signs in, the old one no longer does', async () => {
    const { jar } = await signInWithForm(server.baseUrl, 'ada@example.test', PASSWORD);
    const { jar: otherDevice } = await signInWithForm(server.baseUrl, 'ada@example.test', PASSWORD);
    const copy = copyOf(jar);
    const version = await sessionVersion('ada@example.test');

    const changed = await changePassword(jar, PASSWORD);
    assert.equal(
      String(changed.headers['x-action-redirect']).split(';', 1)[0],
      '/account?changed=1',
      `changed, the browser goes on to the account page (${changed.text.slice(0, 300)})`,
    );
    const confirmation = await get('/account?changed=1', jar);
    assert.match(
      confirmation.text,
      /Password changed\. Every other session of this account has ended; this browser stays signed in\./,
    );
    assert.equal(await sessionVersion('ada@example.test'), version + 1);

    await assertSignedIn(jar, 'ada', 'the browser that changed the password');
    await assertSignedOut(copy, 'ada', "that browser's cookie from before the change");
    await assertSignedOut(otherDevice, 'ada', 'the other device');

    const oldPassword = new CookieJar();
    await postCredentials(server.baseUrl, oldPassword, {
      email: 'ada@example.test',
      password: PASSWORD,
      token: await csrfToken(server.baseUrl, oldPassword),
    });
    assert.equal(oldPassword.sessionCookie(), undefined, 'the old password signs in no more');
    const { jar: fresh } = await signInWithForm(server.baseUrl, 'ada@example.test', NEW_PASSWORD);
    await assertSignedIn(fresh, 'ada', 'a fresh sign-in with the new password');
  });

  it('the operator CLI (user password) ends every session of the account, and the new password works', async () => {
    const { jar } = await signInWithForm(server.baseUrl, 'eve@example.test', PASSWORD);
    const account = await get('/account', jar);
    assert.equal(account.status, 200);

    assert.equal(
      server.cliOk('user', 'password', '--email', ' EVE@example.test ', '--password', NEW_PASSWORD),
      'Set a new password for eve@example.test; every session of the account has ended.\n',
    );
    const after = await get('/account', jar);
    assert.equal(
      new URL(String(after.headers.location), server.baseUrl).pathname,
      '/signin',
      'the session from before is sent to sign in',
    );
    const eve = await db.user.findUniqueOrThrow({ where: { email: 'eve@example.test' } });
    assert.equal(
      await db.auditEvent.count({ where: { action: 'user.password', targetUserId: eve.id, actorLabel: 'cli' } }),
      1,
      'audited as user.password by the CLI',
    );
    const { jar: fresh } = await signInWithForm(server.baseUrl, 'eve@example.test', NEW_PASSWORD);
    assert.equal((await get('/account', fresh)).status, 200);

    const refused = server.cli('user', 'password', '--email', 'eve@example.test', '--password', 'short');
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /at least 10 characters/);
    const usage = server.cli('user', 'password', '--email', 'eve@example.test');
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /user password needs --email and --password/);
    const unknown = server.cli('user', 'password', '--email', 'nobody@example.test', '--password', NEW_PASSWORD);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /No user with email nobody@example\.test/);
  });
});

describe('the current-password check is throttled like sign-in', () => {
  it('after 6 wrong current passwords even the right one is refused, with a time to retry, and nothing changes', async () => {
    const { jar } = await signInWithForm(server.baseUrl, 'cy@example.test', PASSWORD);
    const before = await db.user.findUniqueOrThrow({
      where: { email: 'cy@example.test' },
      select: { passwordHash: true, sessionVersion: true },
    });
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      const answer = await changePassword(jar, `wrong guess number ${attempt}`);
      assert.match(
        answer.text,
        /"ok":false,"error":"(The current password is wrong|Too many wrong passwords)/,
        `guess ${attempt}: ${answer.text.slice(0, 300)}`,
      );
    }
    const right = await changePassword(jar, PASSWORD);
    assert.match(
      right.text,
      /"ok":false,"error":"Too many wrong passwords\. Try again in \d+ (minutes|seconds) \(at \d\d:\d\d UTC\)/,
      right.text.slice(0, 500),
    );
    assert.deepEqual(
      await db.user.findUniqueOrThrow({
        where: { email: 'cy@example.test' },
        select: { passwordHash: true, sessionVersion: true },
      }),
      before,
      'the password and sessions are unchanged',
    );
    await assertSignedInAt(jar, '/account');
  });
});

async function assertSignedInAt(jar: CookieJar, path: string): Promise<void> {
  const answer = await get(path, jar);
  assert.equal(answer.status, 200, `${path} opens (answer ${answer.status} ${answer.headers.location ?? ''})`);
}
