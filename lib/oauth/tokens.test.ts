import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { registration } from '../../test/support/oauth-registration.ts';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { CLI_ACTOR } from '../audit/write.ts';
import { openSqliteHotPath } from '../db/hot-path-sqlite.ts';
import { openSqliteFile } from '../db/sqlite-file.ts';
import { hashKey } from '../keys/hash.ts';
import { issueKey } from '../keys/store.ts';
import { createKeyVerifier } from '../keys/verify.ts';
import { createClientsStore } from './clients.ts';
import { ACCESS_TOKEN_TTL_MS, CODE_TTL_MS, createTokenService, REFRESH_TOKEN_PREFIX } from './tokens.ts';

const RESOURCE = 'https://chem.example/mcp';
const REDIRECT = 'http://127.0.0.1:33418/callback';

async function setup(t: TestContext) {
  let hotPath: ReturnType<typeof openSqliteHotPath> | undefined;
  // Registered before the scratch database's cleanup, so the hot path closes while its file exists.
  t.after(() => hotPath?.close());
  const { url, db, ada } = await scratchPortal(t);
  hotPath = openSqliteHotPath(openSqliteFile(url));
  let clock = Date.now();
  const tokens = createTokenService(db, { now: () => clock });
  const clients = createClientsStore(db);
  // As the SDK's registration handler passes it on, with the id it generated.
  const client = await clients.registerClient(
    registration({ client_id: 'example-agent-id', redirect_uris: [REDIRECT] }),
  );
  const { key } = await issueKey(db, { ownerId: ada.id, name: 'Example Agent (connector)' }, CLI_ACTOR);
  const grant = {
    clientId: client.client_id,
    userId: ada.id,
    keyId: key.id,
    redirectUri: REDIRECT,
    codeChallenge: 'challenge-from-the-client',
    resource: RESOURCE,
  };
  const verifyKey = createKeyVerifier(hotPath);
  return {
    db,
    ada,
    key,
    client,
    tokens,
    grant,
    verify: (token: string) => verifyKey(token, clock),
    advance: (ms: number) => {
      clock += ms;
    },
    connect: async () => {
      const code = await tokens.issueCode(grant);
      return tokens.exchangeAuthorizationCode(client, code, 'verifier', REDIRECT, new URL(RESOURCE));
    },
  };
}

test('a code becomes a connection: its access token is the key for an hour, its refresh token gives the next pair', async (t) => {
  const s = await setup(t);
  const code = await s.tokens.issueCode(s.grant);
  assert.equal(await s.tokens.challengeForAuthorizationCode(s.client, code), 'challenge-from-the-client');
  const stored = await s.db.oAuthCode.findFirstOrThrow();
  assert.equal(stored.hash, hashKey(code), 'the code is kept as an HMAC only');

  const first = await s.tokens.exchangeAuthorizationCode(s.client, code, 'verifier', REDIRECT, new URL(RESOURCE));
  assert.match(first.access_token, /^cf_[0-9A-Za-z]{38}$/, 'the access token is a key secret');
  assert.ok(first.refresh_token?.startsWith(REFRESH_TOKEN_PREFIX));
  assert.equal(first.expires_in, 3600);
  const works = await s.verify(first.access_token);
  assert.ok(works.ok && works.key.id === s.key.id, 'the access token is the connection’s key');
  assert.equal(
    (await s.db.oAuthClient.findUniqueOrThrow({ where: { id: s.client.client_id } })).firstUsedAt !== null,
    true,
  );

  s.advance(ACCESS_TOKEN_TTL_MS);
  const expired = await s.verify(first.access_token);
  assert.ok(!expired.ok && /^Access token expired on/.test(expired.message));
  const second = await s.tokens.exchangeRefreshToken(s.client, first.refresh_token!, undefined, new URL(RESOURCE));
  assert.notEqual(second.refresh_token, first.refresh_token, 'the refresh token is replaced at every use');
  assert.ok((await s.verify(second.access_token)).ok);
  const dump = JSON.stringify(await s.db.oAuthConnection.findMany());
  for (const secret of [first.refresh_token!, second.refresh_token!, second.access_token])
    assert.ok(!dump.includes(secret), 'no token is stored as itself');
});

test('a refresh token used twice ends the connection: every token it was given stops and says why', async (t) => {
  const s = await setup(t);
  const first = await s.connect();
  const second = await s.tokens.exchangeRefreshToken(s.client, first.refresh_token!);
  await assert.rejects(
    s.tokens.exchangeRefreshToken(s.client, first.refresh_token!),
    /already used, so the connection is ended/,
  );
  for (const token of [first.access_token, second.access_token]) {
    const refused = await s.verify(token);
    assert.ok(!refused.ok && /a refresh token of this connection was used twice/.test(refused.message));
  }
  await assert.rejects(s.tokens.exchangeRefreshToken(s.client, second.refresh_token!), /connection has ended/);
  const key = await s.verify((await s.connect()).access_token);
  assert.ok(key.ok, 'the key itself still works: a new connection gets new tokens');
});

test('a code works once, within a minute, for its client, redirect URI and resource only', async (t) => {
  const s = await setup(t);
  const code = await s.tokens.issueCode(s.grant);
  const exchange = (c = code, redirect = REDIRECT, resource = RESOURCE, client = s.client) =>
    s.tokens.exchangeAuthorizationCode(client, c, 'verifier', redirect, new URL(resource));
  await assert.rejects(exchange(code, 'http://127.0.0.1:1/other'), /redirect_uri must be the one/);
  await assert.rejects(
    exchange(code, REDIRECT, 'https://other.example/mcp'),
    /tokens for https:\/\/chem.example\/mcp only/,
  );
  await assert.rejects(
    exchange(code, REDIRECT, RESOURCE, { ...s.client, client_id: 'someone-else' }),
    /Unknown authorization code/,
  );
  const made = await exchange();
  assert.ok((await s.verify(made.access_token)).ok);
  await assert.rejects(exchange(), /already used; the connection it made is ended/);
  const stopped = await s.verify(made.access_token);
  assert.ok(!stopped.ok && /authorization code that made this connection was used twice/.test(stopped.message));

  const late = await s.tokens.issueCode(s.grant);
  s.advance(CODE_TTL_MS);
  await assert.rejects(exchange(late), /expired; authorize again/);
  await assert.rejects(s.tokens.issueCode({ ...s.grant, userId: 'not-the-owner' }), /not the signed-in user/);
});

test('verifyAccessToken says what a live access token stands for and refuses an ended or expired one', async (t) => {
  const s = await setup(t);
  const made = await s.connect();
  const info = await s.tokens.verifyAccessToken(made.access_token);
  assert.equal(info.clientId, s.client.client_id);
  assert.equal(info.resource?.href, RESOURCE);
  assert.ok(info.expiresAt && info.expiresAt * 1000 > Date.now());
  await assert.rejects(s.tokens.verifyAccessToken(s.key.id), /unknown, ended or expired/);
  s.advance(ACCESS_TOKEN_TTL_MS);
  await assert.rejects(s.tokens.verifyAccessToken(made.access_token), /unknown, ended or expired/);
});

test('revoking a refresh token ends its connection; an access token stops alone; the owner can disconnect', async (t) => {
  const s = await setup(t);
  const a = await s.connect();
  const b = await s.connect();
  await s.tokens.revokeToken({ ...s.client, client_id: 'someone-else' }, { token: a.refresh_token! });
  assert.ok((await s.verify(a.access_token)).ok, 'another client’s revocation changes nothing');
  await s.tokens.revokeToken(s.client, { token: a.access_token });
  const alone = await s.verify(a.access_token);
  assert.ok(!alone.ok && /revoked by its app/.test(alone.message));
  assert.ok((await s.tokens.exchangeRefreshToken(s.client, a.refresh_token!)).access_token, 'its connection goes on');
  await s.tokens.revokeToken(s.client, { token: b.refresh_token! });
  await assert.rejects(s.tokens.exchangeRefreshToken(s.client, b.refresh_token!), /connection has ended/);

  const c = await s.connect();
  const { connectionId } = await s.db.keySecret.findUniqueOrThrow({ where: { hash: hashKey(c.access_token) } });
  assert.equal(await s.tokens.disconnect(connectionId!, 'someone-else'), false, 'only its user disconnects it');
  assert.equal(await s.tokens.disconnect(connectionId!, s.ada.id), true);
  const gone = await s.verify(c.access_token);
  assert.ok(!gone.ok && /owner disconnected this app/.test(gone.message));
  assert.equal(await s.tokens.disconnect(connectionId!, s.ada.id), false, 'an ended connection stays ended');
});
