/**
 * The consent step on a real scratch database: what the page shows, and what Allow and Deny do with the
 * signed request, the user's anti-forgery token and the key choice.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { registration } from '../../test/support/oauth-registration.ts';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { createClientsStore } from '../oauth/clients.ts';
import { PENDING_REQUEST_TTL_MS, signPendingRequest } from '../oauth/pending-request.ts';
import { MAX_ACTIVE_KEYS } from './keys.ts';
import { connectorKeyName, consentView, decideConsent, NEW_KEY } from './oauth-consent.ts';

const REDIRECT = 'http://127.0.0.1:33418/callback';
const ISSUER = 'https://chem.example';

async function setup(t: TestContext) {
  const portal = await scratchPortal(t);
  const clients = createClientsStore(portal.db);
  const client = await clients.registerClient(
    registration({ client_id: 'agent-client-id', client_name: 'Example\u202e Agent', redirect_uris: [REDIRECT] }),
  );
  const signed = signPendingRequest({
    clientId: client.client_id,
    redirectUri: REDIRECT,
    codeChallenge: 'challenge',
    state: 'the-state',
    scope: '',
    resource: `${ISSUER}/mcp`,
    issuer: ISSUER,
    expiresAt: Date.now() + PENDING_REQUEST_TTL_MS,
  });
  const view = async (viewer = portal.ada, request: unknown = signed) => {
    const shown = await consentView(portal.db, clients, viewer, request);
    assert.ok(shown.ok, shown.ok ? '' : shown.problem);
    return shown.value;
  };
  const decide = async (form: Record<string, unknown>, viewer = portal.ada) =>
    decideConsent(portal.db, clients, viewer, { request: signed, ...form }, portal.actor(viewer));
  return { ...portal, clients, signed, view, decide };
}

test('the page shows the app (its name made plain), where the browser returns, a new key named after it, and the user’s keys', async (t) => {
  const s = await setup(t);
  await s.issue(s.ada, 'laptop');
  const view = await s.view();
  assert.equal(view.clientName, 'Example Agent');
  assert.equal(view.redirectTarget, '127.0.0.1:33418');
  assert.equal(view.newKeyName, 'Example Agent (connector)');
  assert.ok(view.canCreateKey);
  assert.deepEqual(
    view.keys.map((k) => k.name),
    ['laptop'],
  );
  assert.equal(connectorKeyName('x'.repeat(200)).length, 100, 'a long app name is cut to the key-name limit');
});

test('a tampered or expired request is refused with what to do', async (t) => {
  const s = await setup(t);
  // The payload starts with "7b" ({); a changed byte no longer matches its signature.
  const tampered = `6${s.signed.slice(1)}`;
  const refused = await consentView(s.db, s.clients, s.ada, tampered);
  assert.ok(!refused.ok && /not one this server made/.test(refused.problem));
  const expired = await consentView(s.db, s.clients, s.ada, s.signed, Date.now() + PENDING_REQUEST_TTL_MS + 1);
  assert.ok(!expired.ok && /has expired/.test(expired.problem));
});

test('Allow with a new key: the key is made and named after the app, a code goes back with state and iss, audited', async (t) => {
  const s = await setup(t);
  const { csrf } = await s.view();
  const decided = await s.decide({ csrf, decision: 'allow', key: NEW_KEY });
  assert.ok(decided.ok, decided.ok ? '' : decided.problem);
  const back = new URL(decided.redirectTo);
  assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
  assert.ok(back.searchParams.get('code'));
  assert.equal(back.searchParams.get('state'), 'the-state');
  assert.equal(back.searchParams.get('iss'), ISSUER);
  const key = await s.db.apiKey.findFirstOrThrow({ where: { ownerId: s.ada.id } });
  assert.equal(key.name, 'Example Agent (connector)');
  const allowed = await s.db.auditEvent.findMany({ where: { action: 'oauth.allow' } });
  assert.equal(allowed.length, 1);
  assert.equal(allowed[0].keyId, key.id);
});

test('Allow with an existing key uses it; someone else’s key is refused and nothing is issued', async (t) => {
  const s = await setup(t);
  const { key: laptop } = await s.issue(s.ada, 'laptop');
  const { key: bobs } = await s.issue(s.bob, 'bob’s');
  const { csrf } = await s.view();
  const refused = await s.decide({ csrf, decision: 'allow', key: bobs.id });
  assert.ok(!refused.ok && /not one of your active keys/.test(refused.problem));
  assert.equal(await s.db.oAuthCode.count(), 0);
  const used = await s.decide({ csrf, decision: 'allow', key: laptop.id });
  assert.ok(used.ok);
  const code = await s.db.oAuthCode.findFirstOrThrow();
  assert.equal(code.keyId, laptop.id);
  assert.equal(await s.db.apiKey.count({ where: { ownerId: s.ada.id } }), 1, 'no new key');
});

test('Deny sends access_denied with state and iss, and issues nothing', async (t) => {
  const s = await setup(t);
  const { csrf } = await s.view();
  const decided = await s.decide({ csrf, decision: 'deny' });
  assert.ok(decided.ok);
  const back = new URL(decided.redirectTo);
  assert.equal(back.searchParams.get('error'), 'access_denied');
  assert.equal(back.searchParams.get('state'), 'the-state');
  assert.equal(back.searchParams.get('iss'), ISSUER);
  assert.equal(back.searchParams.get('code'), null);
  assert.equal(await s.db.oAuthCode.count(), 0);
});

test('a form made for another user’s session, or without its token, is refused (consent CSRF)', async (t) => {
  const s = await setup(t);
  const bobsForm = await s.view(s.bob);
  const forged = await s.decide({ csrf: bobsForm.csrf, decision: 'allow', key: NEW_KEY }, s.ada);
  assert.ok(!forged.ok && /not made for your session/.test(forged.problem));
  const missing = await s.decide({ decision: 'allow', key: NEW_KEY });
  assert.ok(!missing.ok);
  assert.equal(await s.db.apiKey.count(), 0);
  assert.equal(await s.db.oAuthCode.count(), 0);
});

test('at the active-key cap a new key is not offered, and asking for one says to choose an existing key', async (t) => {
  const s = await setup(t);
  for (let i = 0; i < MAX_ACTIVE_KEYS; i++) await s.issue(s.ada, `key ${i}`);
  const view = await s.view();
  assert.equal(view.canCreateKey, false);
  const refused = await s.decide({ csrf: view.csrf, decision: 'allow', key: NEW_KEY });
  assert.ok(
    !refused.ok && /active keys.*choose one of your keys/s.test(refused.problem),
    refused.ok ? '' : refused.problem,
  );
  assert.equal(await s.db.oAuthCode.count(), 0);
});
