import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { SCRATCH_IP, scratchPortal } from '../../test/support/portal-db.ts';
import { openSqliteHotPath } from '../db/hot-path-sqlite.ts';
import { openSqliteFile } from '../db/sqlite-file.ts';
import { hashKey } from '../keys/hash.ts';
import { createKeyVerifier } from '../keys/verify.ts';
import { appName } from '../oauth/app-name.ts';
import { createClientsStore } from '../oauth/clients.ts';
import { createTokenService, REFRESH_TOKEN_TTL_MS } from '../oauth/tokens.ts';
import type { Viewer } from './access.ts';
import { runAction } from './action-result.ts';
import { connectedAppsOf, disconnectApp } from './connected-apps.ts';

const RESOURCE = 'https://chem.example/mcp';
const REDIRECT = 'http://127.0.0.1:33418/callback';

async function setup(t: TestContext) {
  let hotPath: ReturnType<typeof openSqliteHotPath> | undefined;
  // Registered before the scratch database's cleanup, so the hot path closes while its file exists.
  t.after(() => hotPath?.close());
  const portal = await scratchPortal(t);
  const { db, url } = portal;
  hotPath = openSqliteHotPath(openSqliteFile(url));
  let clock = Date.now();
  const tokens = createTokenService(db, { now: () => clock });
  const clients = createClientsStore(db, { now: () => clock });
  const register = (id: string, name: string, logo?: string) =>
    clients.registerClient({
      client_id: id,
      client_name: name,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      ...(logo ? { logo_uri: logo } : {}),
    } as Parameters<typeof clients.registerClient>[0] & { client_id: string });
  const claude = await register('claude-client-id', 'Claude', 'https://claude.example/logo.png');
  const chatgpt = await register('chatgpt-client-id', 'ChatGPT');
  const verifyKey = createKeyVerifier(hotPath);

  /** The owner allows `client` to use `keyId`: a code, exchanged as the client does. */
  async function connect(client: typeof claude, owner: Viewer, keyId: string) {
    const code = await tokens.issueCode({
      clientId: client.client_id,
      userId: owner.id,
      keyId,
      redirectUri: REDIRECT,
      codeChallenge: 'challenge-from-the-client',
      resource: RESOURCE,
    });
    const issued = await tokens.exchangeAuthorizationCode(client, code, 'verifier', REDIRECT, new URL(RESOURCE));
    const secret = await db.keySecret.findUniqueOrThrow({ where: { hash: hashKey(issued.access_token) } });
    return { ...issued, connectionId: secret.connectionId! };
  }

  return {
    ...portal,
    tokens,
    claude,
    chatgpt,
    connect,
    now: () => clock,
    advance: (ms: number) => {
      clock += ms;
    },
    verify: (token: string) => verifyKey(token, clock),
  };
}

test('an owner sees their live connections per key: name, logo, when connected and last refreshed', async (t) => {
  const s = await setup(t);
  const { key: adaKey } = await s.issue(s.ada, 'Claude (connector)');
  const { key: adaOther } = await s.issue(s.ada, 'laptop');
  const { key: bobKey } = await s.issue(s.bob, 'ChatGPT (connector)');
  assert.deepEqual(await connectedAppsOf(s.db, s.ada, { now: s.now() }), {}, 'no connections, no entries');

  const first = await s.connect(s.claude, s.ada, adaKey.id);
  const connectedAt = new Date(s.now()).toISOString();
  s.advance(60_000);
  const second = await s.connect(s.chatgpt, s.ada, adaKey.id);
  await s.connect(s.chatgpt, s.bob, bobKey.id);
  // An ended connection (its client revoked it) is not live.
  const revoked = await s.connect(s.chatgpt, s.ada, adaOther.id);
  await s.tokens.revokeToken(s.chatgpt, { token: revoked.refresh_token! });

  s.advance(60_000);
  await s.tokens.exchangeRefreshToken(s.claude, first.refresh_token!);
  const refreshedAt = new Date(s.now()).toISOString();

  const ada = await connectedAppsOf(s.db, s.ada, { now: s.now() });
  assert.deepEqual(Object.keys(ada), [adaKey.id], 'only the key with live connections, and only the viewer’s');
  assert.deepEqual(ada[adaKey.id], [
    {
      connectionId: second.connectionId,
      name: 'ChatGPT',
      logoUri: null,
      connectedAt: new Date(s.now() - 60_000).toISOString(),
      lastRefreshedAt: null,
    },
    {
      connectionId: first.connectionId,
      name: 'Claude',
      logoUri: 'https://claude.example/logo.png',
      connectedAt,
      lastRefreshedAt: refreshedAt,
    },
  ]);
  assert.deepEqual(Object.keys(await connectedAppsOf(s.db, s.bob, { now: s.now() })), [bobKey.id]);
  assert.deepEqual(await connectedAppsOf(s.db, s.ada, { keyId: bobKey.id, now: s.now() }), {}, 'not through a key id');
  assert.deepEqual(await connectedAppsOf(s.db, s.support, { now: s.now() }), {}, 'staff see none of them here');
  assert.equal(
    (await connectedAppsOf(s.db, s.ada, { keyId: adaKey.id, now: s.now() }))[adaKey.id].length,
    2,
    'one key’s',
  );

  // A connection whose refresh token expired can never call again: it is not listed.
  s.advance(REFRESH_TOKEN_TTL_MS - 30_000);
  const later = await connectedAppsOf(s.db, s.ada, { now: s.now() });
  assert.deepEqual(
    later[adaKey.id].map((a) => a.name),
    ['Claude'],
    'the refreshed one lives 30 days from its refresh',
  );
});

test('an app’s name is shown as plain text and its logo only when it is https', async (t) => {
  const s = await setup(t);
  const { key } = await s.issue(s.ada, 'Claude (connector)');
  await s.connect(s.claude, s.ada, key.id);
  // Stored before registration checked logos, or by hand: still never handed on.
  await s.db.oAuthClient.update({
    where: { id: s.claude.client_id },
    data: { name: 'Cla\u202Eude\u0007\n  helper', logoUri: 'javascript:alert(1)' },
  });
  const [app] = (await connectedAppsOf(s.db, s.ada, { now: s.now() }))[key.id];
  assert.equal(app.name, 'Cla ude helper');
  assert.equal(app.logoUri, null);
  await s.db.oAuthClient.update({
    where: { id: s.claude.client_id },
    data: { logoUri: 'http://claude.example/l.png' },
  });
  assert.equal((await connectedAppsOf(s.db, s.ada, { now: s.now() }))[key.id][0].logoUri, null);
  assert.equal(appName(' \u2066\u2069 '), 'Unnamed client');
});

test('only the owner disconnects an app: its tokens stop at once, the key works on, and it is audited', async (t) => {
  const s = await setup(t);
  const { key, secret } = await s.issue(s.ada, 'Claude (connector)');
  const { key: bobKey } = await s.issue(s.bob, 'laptop');
  const connection = await s.connect(s.claude, s.ada, key.id);
  const bobs = await s.connect(s.claude, s.bob, bobKey.id);
  assert.ok((await s.verify(connection.access_token)).ok);

  // Someone else's connection and an id that does not exist get the same answer; nothing changes.
  const refusals = [];
  for (const [viewer, id] of [
    [s.bob, connection.connectionId],
    [s.support, connection.connectionId],
    [s.admin, connection.connectionId],
    [s.ada, 'no-such-connection'],
    [s.ada, bobs.connectionId],
    [s.ada, ''],
  ] as const) {
    refusals.push(await runAction(() => disconnectApp(s.db, viewer, id, s.actor(viewer), s.now())));
  }
  for (const refusal of refusals) assert.deepEqual(refusal, { ok: false, error: 'No such connected app among yours.' });
  assert.equal(
    (await s.db.oAuthConnection.findUniqueOrThrow({ where: { id: connection.connectionId } })).endedAt,
    null,
  );
  assert.ok((await s.verify(connection.access_token)).ok, 'the token still works');
  assert.ok((await s.verify(bobs.access_token)).ok, 'and so does the other owner’s');
  assert.equal(await s.db.auditEvent.count({ where: { action: 'oauth.disconnect' } }), 0);

  const done = await disconnectApp(s.db, s.ada, connection.connectionId, s.actor(s.ada), s.now());
  assert.deepEqual(done, { keyId: key.id, name: 'Claude' });
  const stopped = await s.verify(connection.access_token);
  assert.ok(!stopped.ok && /owner disconnected this app/.test(stopped.message), 'the access token is refused');
  await assert.rejects(s.tokens.exchangeRefreshToken(s.claude, connection.refresh_token!), /connection has ended/);
  const own = await s.verify(secret);
  assert.ok(own.ok && own.key.id === key.id, 'the key itself still works');
  assert.ok((await s.verify(bobs.access_token)).ok, 'another owner’s connection to the same app goes on');
  assert.deepEqual(await connectedAppsOf(s.db, s.ada, { now: s.now() }), {});
  const ended = await s.db.oAuthConnection.findUniqueOrThrow({ where: { id: connection.connectionId } });
  assert.equal(ended.endedHow, 'disconnected');

  const events = await s.db.auditEvent.findMany({ where: { action: 'oauth.disconnect' } });
  assert.equal(events.length, 1);
  const [event] = events;
  assert.equal(event.actorId, s.ada.id);
  assert.equal(event.actorLabel, 'developer:ada@example.test');
  assert.equal(event.keyId, key.id);
  assert.equal(event.ip, SCRATCH_IP);
  assert.deepEqual(JSON.parse(event.before!), {
    app: 'Claude',
    clientId: s.claude.client_id,
    connectedAt: ended.createdAt.toISOString(),
  });
  assert.ok(event.createdAt.getTime() >= ended.endedAt!.getTime() - 1000, 'written with the change');

  // A second click changes nothing more and says why.
  const again = await runAction(() => disconnectApp(s.db, s.ada, connection.connectionId, s.actor(s.ada), s.now()));
  assert.deepEqual(again, {
    ok: false,
    error: 'Claude is no longer connected to this key: its access already ended.',
  });
  assert.equal(await s.db.auditEvent.count({ where: { action: 'oauth.disconnect' } }), 1);
});
