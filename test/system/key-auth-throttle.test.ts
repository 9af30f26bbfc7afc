/**
 * Failed key authentications are throttled per client address, against the real production server.
 * The server trusts X-Forwarded-For (TRUST_PROXY=1), so each address is a header; 3 failures per 5 s
 * lock an address.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { generateKey } from '../../lib/keys/format.ts';
import { errorBody } from '../support/mcp-answers.ts';
import { type McpAnswer, postMcp, rpc } from '../support/mcp-client.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const MAX_FAILURES = 3;
const THROTTLED =
  /^Too many failed API keys came from this address \(3 different keys within 5 s\), so keys sent from it are refused until \S+Z: retry in \d s\. Keys that already worked from this address keep working\.$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const servers: TestServer[] = [];
after(async () => {
  for (const server of servers) await server.stop();
});

let nextAddress = 1;
/** A documentation address (RFC 5737) no other test uses. */
const freshAddress = () => `198.51.100.${nextAddress++}`;

function newKey(server: TestServer, disabled = false): string {
  const created = server.cli('key', 'create', '--owner', server.adminEmail, '--tier', 'pro', '--json');
  assert.equal(created.status, 0, created.stderr);
  const { key } = JSON.parse(created.stdout);
  if (disabled) assert.equal(server.cli('key', 'disable', key, '--reason', 'test').status, 0);
  return key;
}

/** A ping (it needs a key) from `address`, with the key in `headers`. */
function ping(server: TestServer, address: string, headers: Record<string, string>): Promise<McpAnswer> {
  return postMcp(server.mcpUrl, rpc('ping'), { 'x-forwarded-for': address, 'x-forwarded-proto': 'https', ...headers });
}
const withKey = (key: string) => ({ authorization: `Bearer ${key}` });

function assertThrottled(answer: McpAnswer): number {
  assert.equal(answer.status, 401);
  assert.equal(errorBody(answer).error, 'invalid_api_key');
  assert.match(errorBody(answer).message, THROTTLED);
  const retryAfter = Number(answer.headers.get('retry-after'));
  assert.ok(retryAfter >= 1 && retryAfter <= 5, `Retry-After ${answer.headers.get('retry-after')}`);
  assert.match(
    answer.headers.get('www-authenticate') ?? '',
    /^Bearer realm="mcp", resource_metadata="[^"]+", error="invalid_token", error_description="Too many failed API keys/,
  );
  return retryAfter;
}

function assertPlainFailure(answer: McpAnswer, says: RegExp): void {
  assert.equal(answer.status, 401);
  assert.equal(errorBody(answer).error, 'invalid_api_key');
  assert.match(errorBody(answer).message, says);
  assert.equal(answer.headers.get('retry-after'), null);
}

test(`${MAX_FAILURES} failed keys lock an address; keys that worked from it keep working; others are unaffected`, async (t) => {
  const server = await startTestServer({
    TRUST_PROXY: '1',
    KEY_AUTH_MAX_FAILURES: String(MAX_FAILURES),
    KEY_AUTH_FAILURE_WINDOW_SECONDS: '5',
  });
  servers.push(server);
  const usedBefore = newKey(server);
  const neverSeen = newKey(server);
  const disabled = newKey(server, true);
  const [a, b] = [freshAddress(), freshAddress()];
  assert.equal((await ping(server, a, withKey(usedBefore))).status, 200);

  await t.test('requests without a usable key are not counted', async () => {
    for (let i = 0; i < MAX_FAILURES + 2; i++) {
      assert.equal(errorBody(await ping(server, a, {})).error, 'missing_api_key');
      assert.equal(errorBody(await ping(server, a, { authorization: 'Basic abc' })).error, 'invalid_api_key');
    }
  });

  await t.test(
    'retrying one failed key is counted once: a client with a mistyped or disabled key does not lock its address',
    async () => {
      const c = freshAddress();
      const mistyped = generateKey();
      for (let i = 0; i < MAX_FAILURES + 2; i++) {
        assertPlainFailure(await ping(server, c, withKey(mistyped)), /no such key exists/);
        assertPlainFailure(await ping(server, c, { 'x-api-key': disabled }), /disabled/);
      }
      assert.equal(
        (await ping(server, c, withKey(neverSeen))).status,
        200,
        'a key never used from the address still works',
      );
    },
  );

  let lastRetryAfter = 0;
  await t.test(
    `${MAX_FAILURES} failures are answered as such; the next is refused with Retry-After, still 401 invalid_api_key`,
    async () => {
      assertPlainFailure(await ping(server, a, withKey('cf_short')), /API key not recognised/);
      assertPlainFailure(await ping(server, a, withKey(generateKey())), /no such key exists/);
      assertPlainFailure(await ping(server, a, { 'x-api-key': disabled }), /disabled/);
      lastRetryAfter = assertThrottled(await ping(server, a, withKey(generateKey())));
      assertThrottled(await ping(server, a, { 'x-api-key': disabled }));
    },
  );

  await t.test(
    'while locked, the key used from the address before keeps working; a valid key never used from it gets the answer a bad key gets',
    async () => {
      assert.equal((await ping(server, a, withKey(usedBefore))).status, 200);
      const unseen = await ping(server, a, withKey(neverSeen));
      const bad = await ping(server, a, withKey(generateKey()));
      assertThrottled(unseen);
      assertThrottled(bad);
      const shape = (answer: McpAnswer) => answer.text.replace(/\d+/g, 'N');
      assert.equal(shape(unseen), shape(bad), 'the answer must not tell a valid key from a bad one');
      lastRetryAfter = Number(bad.headers.get('retry-after'));
    },
  );

  await t.test('other addresses are unaffected', async () => {
    assertPlainFailure(await ping(server, b, withKey(generateKey())), /no such key exists/);
    assert.equal((await ping(server, b, withKey(neverSeen))).status, 200);
  });

  await t.test('once the failures leave the window, the address works again', async () => {
    await sleep(lastRetryAfter * 1000 + 300);
    assert.equal((await ping(server, a, withKey(neverSeen))).status, 200);
    assertPlainFailure(await ping(server, a, withKey(generateKey())), /no such key exists/);
  });
});
