import assert from 'node:assert/strict';
import { test } from 'node:test';
import { registration } from '../../test/support/oauth-registration.ts';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { hashKey } from '../keys/hash.ts';
import { createClientsStore, MAX_DYNAMIC_CLIENTS, UNUSED_CLIENT_TTL_MS } from './clients.ts';

test('a client registers itself and is read back without any secret; a confidential one’s secret is kept as an HMAC', async (t) => {
  const { db } = await scratchPortal(t);
  const store = createClientsStore(db);
  const publicClient = await store.registerClient(registration());
  assert.equal(publicClient.client_secret, undefined);
  const read = await store.getClient(publicClient.client_id);
  assert.deepEqual(read?.redirect_uris, ['http://127.0.0.1:33418/callback', 'https://agent.example/oauth/callback']);
  assert.equal(read?.client_name, 'Example Agent');
  assert.equal(read?.token_endpoint_auth_method, 'none');

  const secret = 'a'.repeat(64);
  const confidential = await store.registerClient(
    registration({ token_endpoint_auth_method: 'client_secret_post', client_secret: secret, client_name: '  ' }),
  );
  assert.equal(confidential.client_secret, secret, 'the answer carries the secret once');
  assert.equal(confidential.client_name, 'Unnamed client');
  const stored = await db.oAuthClient.findUniqueOrThrow({ where: { id: confidential.client_id } });
  assert.equal(stored.secretHash, hashKey(secret));
  assert.ok(!JSON.stringify(stored).includes(secret), 'the secret itself is stored nowhere');
  assert.equal((await store.getClient(confidential.client_id))?.client_secret, undefined);
  assert.equal(await store.getClient('no-such-client'), undefined);
});

test('a registration with unsafe redirect URIs or unsupported grants is refused with every problem, and nothing is stored', async (t) => {
  const { db } = await scratchPortal(t);
  const store = createClientsStore(db);
  await assert.rejects(
    store.registerClient(
      registration({
        redirect_uris: ['http://evil.example/cb', 'myapp://cb', 'https://ok.example/cb#x'],
        grant_types: ['authorization_code', 'client_credentials'],
        logo_uri: 'http://logo.example/x.png',
        token_endpoint_auth_method: 'private_key_jwt',
      }),
    ),
    (error: Error & { errorCode?: string }) => {
      assert.equal(error.errorCode, 'invalid_client_metadata');
      for (const part of [
        /"http:\/\/evil.example\/cb" uses http to a host other than this machine/,
        /"myapp:\/\/cb" uses the custom scheme myapp:/,
        /fragment/,
        /not client_credentials/,
        /logo_uri must be an https URL/,
        /not private_key_jwt/,
      ])
        assert.match(error.message, part);
      return true;
    },
  );
  await assert.rejects(store.registerClient(registration({ redirect_uris: [] })), /at least one URI/);
  assert.equal(await db.oAuthClient.count(), 0);
});

test('self-registered clients are capped; those never used expire after a day and make room', async (t) => {
  const { db } = await scratchPortal(t);
  let now = Date.UTC(2026, 10, 1);
  const store = createClientsStore(db, { now: () => now });
  await db.oAuthClient.createMany({
    data: Array.from({ length: MAX_DYNAMIC_CLIENTS }, (_, i) => ({
      id: `filler-${i}`,
      name: 'filler',
      redirectUris: '["https://x.example/cb"]',
      registeredBy: 'dynamic',
      createdAt: new Date(now),
      // One in ten was used: those stay.
      firstUsedAt: i % 10 === 0 ? new Date(now) : null,
    })),
  });
  await assert.rejects(store.registerClient(registration()), (error: Error & { errorCode?: string }) => {
    assert.equal(error.errorCode, 'temporarily_unavailable');
    assert.match(error.message, /unused ones expire within a day/);
    return true;
  });
  now += UNUSED_CLIENT_TTL_MS + 1;
  const registered = await store.registerClient(registration());
  assert.ok(await store.getClient(registered.client_id));
  assert.equal(
    await db.oAuthClient.count(),
    MAX_DYNAMIC_CLIENTS / 10 + 1,
    'the unused ones are gone, the used ones kept',
  );
});
