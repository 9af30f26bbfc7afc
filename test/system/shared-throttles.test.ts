/**
 * In the shared mode the attempt counts live in Redis: two production servers on one PostgreSQL
 * database and one Redis (under a key prefix of this run), where attempts on one instance count on the
 * other, for /mcp key authentications, sign-ins (Auth.js's credentials endpoint), sign-ups (the
 * portal's form) and leak reports; with Redis gone, each instance goes on counting in its own memory.
 * Skipped without PostgreSQL or Redis, except under CI=true.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import { generateKey } from '../../lib/keys/format.ts';
import { errorBody } from '../support/mcp-answers.ts';
import { type McpAnswer, postMcp, rpc } from '../support/mcp-client.ts';
import {
  MACHINE_REDIS,
  redisAvailable,
  sharedEnv,
  startRedis,
  startSharedInstances,
  stopRedis,
} from '../support/shared-mode.ts';
import { scratchPostgresUrl } from '../support/test-databases.ts';
import { freePort, startTestServer, type TestServer } from '../support/test-server.ts';
import { callServerAction, formOf, serverActionIds } from '../support/web-client.ts';

let nextAddress = 1;
/** A documentation address (RFC 5737) no other test uses, as the proxy in front would report it. */
function freshAddress(): Record<string, string> {
  return { 'x-forwarded-for': `192.0.2.${nextAddress++}`, 'x-forwarded-proto': 'https' };
}

function ping(server: TestServer, from: Record<string, string>, key: string): Promise<McpAnswer> {
  return postMcp(server.mcpUrl, rpc('ping'), { ...from, authorization: `Bearer ${key}` });
}

function newKey(server: TestServer): string {
  const created = server.cli('key', 'create', '--owner', server.adminEmail, '--tier', 'pro', '--json');
  assert.equal(created.status, 0, created.stderr);
  return JSON.parse(created.stdout).key;
}

/**
 * One sign-in through Auth.js's credentials endpoint, as the sign-in form's action makes it: 'signed in',
 * or the code of the refusal ('credentials' for a wrong email or password, 'too_many_attempts').
 */
async function signIn(
  server: TestServer,
  from: Record<string, string>,
  email: string,
  password: string,
): Promise<string> {
  const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`, { headers: from });
  const { csrfToken } = await csrf.json();
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(';', 1)[0])
    .join('; ');
  const answer = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...from, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: '/keys' }),
  });
  assert.equal(answer.status, 302, await answer.text());
  const location = new URL(answer.headers.get('location')!, server.baseUrl);
  if (location.pathname === '/keys') return 'signed in';
  assert.equal(location.searchParams.get('error'), 'CredentialsSignin', location.href);
  return location.searchParams.get('code')!;
}

function reportLeak(server: TestServer, from: Record<string, string>): Promise<Response> {
  return fetch(`${server.baseUrl}/api/keys/report-leak`, {
    method: 'POST',
    headers: { ...from, 'content-type': 'application/json' },
    body: JSON.stringify({ secrets: [generateKey()] }),
  });
}

test('two instances share the failure counts through Redis', async (t) => {
  const shared = await startSharedInstances(t, {
    TRUST_PROXY: '1',
    KEY_AUTH_MAX_FAILURES: '3',
    LEAK_REPORTS_PER_MINUTE: '2',
    SIGN_UPS_PER_HOUR: '2',
  });
  if (!shared) return;
  const { env, a: one, b: two } = shared;

  await t.test('key failures on one instance lock the address on the other', async () => {
    const usedBefore = newKey(one);
    const neverSeen = newKey(one);
    const from = freshAddress();
    assert.equal((await ping(two, from, usedBefore)).status, 200);
    for (let i = 0; i < 3; i++)
      assert.equal(errorBody(await ping(one, from, generateKey())).message.startsWith('API key not recognised'), true);

    const refused = await ping(two, from, generateKey());
    assert.equal(refused.status, 401);
    assert.equal(errorBody(refused).error, 'invalid_api_key');
    assert.match(
      errorBody(refused).message,
      /^Too many failed API keys came from this address \(3 different keys within 60 s\)/,
    );
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((await ping(two, from, usedBefore)).status, 200, 'a key that worked from the address keeps working');
    assert.match(errorBody(await ping(two, from, neverSeen)).message, /^Too many failed/);
    assert.match(errorBody(await ping(one, from, neverSeen)).message, /^Too many failed/);
    assert.equal((await ping(two, freshAddress(), neverSeen)).status, 200, 'other addresses are unaffected');
  });

  await t.test(
    'failed sign-ins on one instance count on the other: 5 from one address lock that pair, 10 from any lock the email',
    async () => {
      assert.equal(await signIn(two, freshAddress(), one.adminEmail, one.adminPassword!), 'signed in');
      const guesser = freshAddress();
      for (let i = 0; i < 5; i++)
        assert.equal(await signIn(one, guesser, one.adminEmail, `wrong password ${i}`), 'credentials');
      assert.equal(await signIn(two, guesser, one.adminEmail, one.adminPassword!), 'too_many_attempts');
      assert.equal(
        await signIn(two, freshAddress(), one.adminEmail, one.adminPassword!),
        'signed in',
        'from another address',
      );
      for (let i = 5; i < 10; i++)
        assert.equal(await signIn(one, freshAddress(), one.adminEmail, `wrong password ${i}`), 'credentials');
      assert.equal(
        await signIn(two, freshAddress(), one.adminEmail, one.adminPassword!),
        'too_many_attempts',
        'a browser without a device cookie waits',
      );
    },
  );

  await t.test('20 failed sign-ins from an address on one instance lock that address on the other', async () => {
    const from = freshAddress();
    for (let i = 0; i < 20; i++)
      assert.equal(await signIn(one, from, `nobody${i}@example.test`, 'a guessed password'), 'credentials');
    assert.equal(await signIn(two, from, 'someone@example.test', 'another guess'), 'too_many_attempts');
    assert.equal(
      await signIn(two, freshAddress(), 'someone@example.test', 'another guess'),
      'credentials',
      'other addresses are unaffected',
    );
  });

  await t.test('leak reports count across instances', async () => {
    const from = freshAddress();
    assert.equal((await reportLeak(one, from)).status, 202);
    assert.equal((await reportLeak(two, from)).status, 202);
    const refused = await reportLeak(one, from);
    assert.equal(refused.status, 429);
    assert.equal((await refused.json()).error, 'rate_limit_exceeded');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((await reportLeak(two, freshAddress())).status, 202, 'other addresses are unaffected');
  });

  await t.test('sign-ups from one address count across instances', async () => {
    const from = freshAddress();
    const signUp = (server: TestServer, email: string) =>
      callServerAction(server.baseUrl, {
        page: '/signup',
        actionId: serverActionIds().get('app/(auth)/actions.ts#signUpAction')!,
        args: [null, formOf({ email, password: 'a long sign-up password', confirm: 'a long sign-up password' })],
        headers: from,
      });
    assert.match(
      String((await signUp(one, 'shared-1@example.test')).headers['x-action-redirect']),
      /^\/signin\?notice=/,
    );
    assert.match(
      String((await signUp(two, 'shared-2@example.test')).headers['x-action-redirect']),
      /^\/signin\?notice=/,
    );
    const refused = await signUp(one, 'shared-3@example.test');
    assert.equal(refused.headers['x-action-redirect'], undefined);
    assert.match(refused.text, /Too many sign-ups from your network address\. Try again in \d+ minutes?\./);
  });

  await t.test('the counts are in Redis, under the prefix, expiring', async () => {
    const redis = new Redis(MACHINE_REDIS);
    t.after(() => redis.quit());
    const keys = await redis.keys(`${env.REDIS_KEY_PREFIX}:attempts:*`);
    const counters = new Set(keys.map((key) => key.split(':')[2]));
    assert.deepEqual([...counters].sort(), [
      'key-auth',
      'leak-report',
      'sign-in-address',
      'sign-in-email',
      'sign-in-email-address',
      'sign-up-address',
    ]);
    for (const key of keys) assert.ok((await redis.pttl(key)) > 0, `${key} must expire`);
  });
});

test('with Redis unreachable, an instance throttles in its own memory and valid keys and sign-ins still work', async (t) => {
  let server: TestServer | undefined;
  let redis: ChildProcess | undefined;
  t.after(async () => {
    await server?.stop();
    if (redis) await stopRedis(redis);
  });
  const url = await scratchPostgresUrl(t);
  if (!url || !(await redisAvailable(t, MACHINE_REDIS))) return;
  const port = await freePort();
  redis = await startRedis(port);
  server = await startTestServer({
    ...sharedEnv(url, `redis://127.0.0.1:${port}`),
    TRUST_PROXY: '1',
    KEY_AUTH_MAX_FAILURES: '3',
  });
  const key = newKey(server);
  await stopRedis(redis);

  const from = freshAddress();
  assert.equal((await ping(server, from, key)).status, 200);
  for (let i = 0; i < 3; i++)
    assert.match(errorBody(await ping(server, from, generateKey())).message, /^API key not recognised/);
  assert.match(errorBody(await ping(server, from, generateKey())).message, /^Too many failed API keys came/);
  assert.equal((await ping(server, from, key)).status, 200, 'the key that worked from the address keeps working');

  assert.equal(await signIn(server, freshAddress(), server.adminEmail, server.adminPassword!), 'signed in');
  const guesser = freshAddress();
  for (let i = 0; i < 5; i++)
    assert.equal(await signIn(server, guesser, server.adminEmail, `wrong password ${i}`), 'credentials');
  assert.equal(await signIn(server, guesser, server.adminEmail, server.adminPassword!), 'too_many_attempts');
  assert.match(server.output(), /counting failed attempts on this instance only/);
});
