import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { registration } from '../../test/support/oauth-registration.ts';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { CLI_ACTOR } from '../audit/write.ts';
import { openSqliteHotPath } from '../db/hot-path-sqlite.ts';
import { openSqliteFile } from '../db/sqlite-file.ts';
import { hashKey } from '../keys/hash.ts';
import { createKeyVerifier } from '../keys/verify.ts';
import { createClientsStore } from './clients.ts';
import { addOperatorClient, CLIENT_SECRET_PREFIX, listClients, removeClient } from './operator-clients.ts';
import { createTokenService } from './tokens.ts';

const RESOURCE = 'https://chem.example/mcp';
const DESKTOP_REDIRECT = 'chemdesk://oauth/callback';

async function setup(t: TestContext) {
  let hotPath: ReturnType<typeof openSqliteHotPath> | undefined;
  // Registered before the scratch database's cleanup, so the hot path closes while its file exists.
  t.after(() => hotPath?.close());
  const portal = await scratchPortal(t);
  hotPath = openSqliteHotPath(openSqliteFile(portal.url));
  const tokens = createTokenService(portal.db);
  const clients = createClientsStore(portal.db);
  const verifyKey = createKeyVerifier(hotPath);
  const { key, secret } = await portal.issue(portal.ada, 'Desktop app (connector)');
  /** A connection of the client to Ada's key, as the consent step and the token endpoint make it. */
  const connect = async (clientId: string, redirectUri: string) => {
    const client = (await clients.getClient(clientId))!;
    const code = await tokens.issueCode({
      clientId,
      userId: portal.ada.id,
      keyId: key.id,
      redirectUri,
      codeChallenge: 'challenge-from-the-client',
      resource: RESOURCE,
    });
    return {
      client,
      ...(await tokens.exchangeAuthorizationCode(client, code, 'verifier', redirectUri, new URL(RESOURCE))),
    };
  };
  return { ...portal, tokens, clients, key, secret, connect, verify: (token: string) => verifyKey(token, Date.now()) };
}

test('the operator adds a public desktop client with a custom-scheme redirect URI; the store serves it and the audit trail has it', async (t) => {
  const s = await setup(t);
  const added = await addOperatorClient(
    s.db,
    { name: '  ChemDesk  ', redirectUris: [DESKTOP_REDIRECT, 'http://127.0.0.1/callback'], confidential: false },
    CLI_ACTOR,
  );
  assert.match(added.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.equal(added.secret, undefined, 'a public client has no secret');
  assert.equal(added.tokenEndpointAuthMethod, 'none');

  const stored = await s.db.oAuthClient.findUniqueOrThrow({ where: { id: added.id } });
  assert.deepEqual(
    [stored.name, stored.registeredBy, stored.tokenEndpointAuthMethod, stored.secretHash],
    ['ChemDesk', 'operator', 'none', null],
  );
  const served = await s.clients.getClient(added.id);
  assert.deepEqual(served?.redirect_uris, [DESKTOP_REDIRECT, 'http://127.0.0.1/callback']);
  assert.equal(served?.token_endpoint_auth_method, 'none');

  const event = await s.db.auditEvent.findFirstOrThrow({ where: { action: 'oauth_client.add' } });
  assert.equal(event.actorLabel, 'cli');
  assert.deepEqual(JSON.parse(event.after!), {
    clientId: added.id,
    name: 'ChemDesk',
    registeredBy: 'operator',
    redirectUris: [DESKTOP_REDIRECT, 'http://127.0.0.1/callback'],
    logoUri: null,
    clientUri: null,
    tokenEndpointAuthMethod: 'none',
  });
});

test('a confidential client gets a secret once; only its HMAC is stored, and the audit trail never sees it', async (t) => {
  const s = await setup(t);
  const added = await addOperatorClient(
    s.db,
    {
      name: 'Lab notebook',
      redirectUris: ['https://notebook.example/oauth/callback'],
      logoUri: 'https://notebook.example/logo.png',
      clientUri: 'https://notebook.example/',
      confidential: true,
    },
    CLI_ACTOR,
  );
  assert.ok(added.secret?.startsWith(CLIENT_SECRET_PREFIX));
  assert.match(added.secret!, /^cfcs_[A-Za-z0-9_-]{43}$/, '32 random bytes');
  assert.equal(added.tokenEndpointAuthMethod, 'client_secret_basic');
  const stored = await s.db.oAuthClient.findUniqueOrThrow({ where: { id: added.id } });
  assert.equal(stored.secretHash, hashKey(added.secret!));
  assert.equal(stored.tokenEndpointAuthMethod, 'client_secret_basic');
  assert.deepEqual(
    [stored.logoUri, stored.clientUri],
    ['https://notebook.example/logo.png', 'https://notebook.example/'],
  );
  const everything = JSON.stringify([stored, await s.db.auditEvent.findMany()]);
  assert.ok(!everything.includes(added.secret!), 'the secret itself is stored nowhere');
  assert.ok(!everything.includes(added.secret!.slice(CLIENT_SECRET_PREFIX.length, 20)), 'nor a piece of it');
  assert.equal((await s.clients.getClient(added.id))?.client_secret, undefined);

  const other = await addOperatorClient(
    s.db,
    { name: 'Second', redirectUris: ['https://b.example/cb'], confidential: true },
    CLI_ACTOR,
  );
  assert.notEqual(other.secret, added.secret);
  assert.notEqual(other.id, added.id);
});

test('unsafe metadata is refused with every problem in one message, and nothing is stored or audited', async (t) => {
  const s = await setup(t);
  await assert.rejects(
    addOperatorClient(
      s.db,
      {
        name: '   ',
        redirectUris: ['javascript:alert(1)', 'chemdesk://cb#frag', 'http://evil.example/cb', DESKTOP_REDIRECT],
        logoUri: 'http://logo.example/x.png',
        confidential: false,
      },
      CLI_ACTOR,
    ),
    (error: Error & { code?: string; problems?: string[] }) => {
      assert.equal(error.code, 'invalid');
      assert.equal(error.problems?.length, 5, error.message);
      for (const part of [
        /needs a name/,
        /"javascript:alert\(1\)" uses the javascript: scheme, which is never a redirect/,
        /"chemdesk:\/\/cb#frag" has a fragment/,
        /"http:\/\/evil.example\/cb" uses http to a host other than this machine/,
        /logo_uri must be an https URL/,
      ])
        assert.match(error.message, part);
      assert.doesNotMatch(
        error.message,
        /chemdesk:\/\/oauth\/callback/,
        'an acceptable URI is not listed as a problem',
      );
      return true;
    },
  );
  await assert.rejects(
    addOperatorClient(s.db, { name: 'No redirect', redirectUris: [], confidential: false }, CLI_ACTOR),
    /redirect_uris must list at least one URI/,
  );
  await assert.rejects(
    addOperatorClient(
      s.db,
      { name: 'x'.repeat(101), redirectUris: [DESKTOP_REDIRECT], confidential: false },
      CLI_ACTOR,
    ),
    /client_name may be at most 100 characters/,
  );
  assert.equal(await s.db.oAuthClient.count(), 0);
  assert.equal(await s.db.auditEvent.count({ where: { action: { startsWith: 'oauth_client.' } } }), 0);
});

test('the list shows the operator’s clients, the self-registered ones or all, each with its live connections', async (t) => {
  const s = await setup(t);
  const desktop = await addOperatorClient(
    s.db,
    { name: 'ChemDesk', redirectUris: [DESKTOP_REDIRECT], confidential: false },
    CLI_ACTOR,
  );
  const web = await addOperatorClient(
    s.db,
    { name: 'Lab notebook', redirectUris: ['https://notebook.example/cb'], confidential: true },
    CLI_ACTOR,
  );
  const selfRegistered = await s.clients.registerClient(
    registration({ client_id: 'self-registered-agent', redirect_uris: ['http://127.0.0.1:33418/callback'] }),
  );

  assert.deepEqual(
    (await listClients(s.db, { registeredBy: 'operator' })).map((c) => c.id),
    [desktop.id, web.id],
  );
  assert.deepEqual(
    (await listClients(s.db, { registeredBy: 'dynamic' })).map((c) => c.id),
    [selfRegistered.client_id],
  );
  assert.equal((await listClients(s.db)).length, 3, 'all of them by default');

  await s.connect(desktop.id, DESKTOP_REDIRECT);
  const second = await s.connect(desktop.id, DESKTOP_REDIRECT);
  const { connectionId } = await s.db.keySecret.findUniqueOrThrow({ where: { hash: hashKey(second.access_token) } });
  await s.tokens.disconnect(connectionId!, s.ada.id);
  const [listed] = await listClients(s.db, { registeredBy: 'operator' });
  assert.deepEqual(
    { ...listed, createdAt: undefined, firstUsedAt: undefined },
    {
      id: desktop.id,
      name: 'ChemDesk',
      registeredBy: 'operator',
      redirectUris: [DESKTOP_REDIRECT],
      tokenEndpointAuthMethod: 'none',
      createdAt: undefined,
      firstUsedAt: undefined,
      liveConnections: 1,
    },
    'an ended connection is not counted',
  );
  assert.ok(listed.firstUsedAt instanceof Date && listed.createdAt instanceof Date);
  const [notebook] = (await listClients(s.db, { registeredBy: 'operator' })).slice(1);
  assert.deepEqual(
    [notebook.tokenEndpointAuthMethod, notebook.liveConnections, notebook.firstUsedAt],
    ['client_secret_basic', 0, null],
  );
});

test('removing a client ends its connections: its access tokens are refused saying why, its refresh tokens and codes stop working', async (t) => {
  const s = await setup(t);
  const desktop = await addOperatorClient(
    s.db,
    { name: 'ChemDesk', redirectUris: [DESKTOP_REDIRECT], confidential: false },
    CLI_ACTOR,
  );
  const other = await addOperatorClient(
    s.db,
    { name: 'Other app', redirectUris: ['https://other.example/cb'], confidential: false },
    CLI_ACTOR,
  );
  const first = await s.connect(desktop.id, DESKTOP_REDIRECT);
  const second = await s.connect(desktop.id, DESKTOP_REDIRECT);
  const kept = await s.connect(other.id, 'https://other.example/cb');
  const pendingCode = await s.tokens.issueCode({
    clientId: desktop.id,
    userId: s.ada.id,
    keyId: s.key.id,
    redirectUri: DESKTOP_REDIRECT,
    codeChallenge: 'challenge-from-the-client',
    resource: RESOURCE,
  });
  for (const token of [first.access_token, second.access_token]) assert.ok((await s.verify(token)).ok, 'works before');

  const removed = await removeClient(s.db, desktop.id, CLI_ACTOR);
  assert.deepEqual(removed, {
    id: desktop.id,
    name: 'ChemDesk',
    registeredBy: 'operator',
    connectionsEnded: 2,
    tokensEnded: 2,
  });
  for (const token of [first.access_token, second.access_token]) {
    const refused = await s.verify(token);
    assert.ok(!refused.ok, 'the access token stopped at once');
    assert.match(refused.message, /^Access token stopped on \S+Z: the service's operator removed this app/);
  }
  await assert.rejects(s.tokens.exchangeRefreshToken(first.client, first.refresh_token!), /Unknown refresh token/);
  await assert.rejects(
    s.tokens.exchangeAuthorizationCode(first.client, pendingCode, 'verifier', DESKTOP_REDIRECT, new URL(RESOURCE)),
    /Unknown authorization code/,
  );
  assert.equal(await s.clients.getClient(desktop.id), undefined);
  assert.equal(await s.db.oAuthConnection.count({ where: { clientId: desktop.id } }), 0);
  assert.equal(await s.db.oAuthCode.count({ where: { clientId: desktop.id } }), 0);

  assert.ok((await s.verify(kept.access_token)).ok, 'another client’s connection to the same key goes on');
  assert.ok((await s.verify(s.secret)).ok, 'the key itself works on');
  const event = await s.db.auditEvent.findFirstOrThrow({ where: { action: 'oauth_client.remove' } });
  assert.equal(event.actorLabel, 'cli');
  assert.deepEqual(
    { ...JSON.parse(event.before!), redirectUris: undefined },
    {
      clientId: desktop.id,
      name: 'ChemDesk',
      registeredBy: 'operator',
      redirectUris: undefined,
      logoUri: null,
      clientUri: null,
      tokenEndpointAuthMethod: 'none',
      liveConnections: 2,
    },
  );
});

test('a self-registered client can be removed too; an unknown id is refused by name and changes nothing', async (t) => {
  const s = await setup(t);
  const selfRegistered = await s.clients.registerClient(
    registration({ client_id: 'self-registered-agent', redirect_uris: ['http://127.0.0.1:33418/callback'] }),
  );
  const connection = await s.connect(selfRegistered.client_id, 'http://127.0.0.1:33418/callback');

  await assert.rejects(
    removeClient(s.db, 'no-such-client', CLI_ACTOR),
    (error: Error & { code?: string }) =>
      error.code === 'not_found' && /No OAuth client with id "no-such-client"/.test(error.message),
  );
  assert.equal(await s.db.auditEvent.count({ where: { action: 'oauth_client.remove' } }), 0);
  assert.ok((await s.verify(connection.access_token)).ok);

  const removed = await removeClient(s.db, selfRegistered.client_id, CLI_ACTOR);
  assert.deepEqual([removed.registeredBy, removed.connectionsEnded], ['dynamic', 1]);
  assert.ok(!(await s.verify(connection.access_token)).ok);
  await assert.rejects(removeClient(s.db, selfRegistered.client_id, CLI_ACTOR), /No OAuth client with id/);
});
