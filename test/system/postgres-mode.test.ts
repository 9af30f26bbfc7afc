/**
 * The production server in its scale-out mode, DATABASE_URL=postgresql://…, on a fresh database: calls
 * are admitted, answered and recorded; a key disabled elsewhere (the CLI, another process) stops working
 * once PostgreSQL delivers the change by NOTIFY; and the daily quota stays exact under a burst.
 * Skipped when no PostgreSQL answers, except under CI=true.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { errorBody, initializeResult, toolResult } from '../support/mcp-answers.ts';
import { bearer, type McpAnswer, postMcp, rpc, toolCall } from '../support/mcp-client.ts';
import { reportCountingRateLimited } from '../support/rate-limited-report.ts';
import { scratchPostgresUrl } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const QUERY_WATER = () => toolCall('service_query_compound', { compound_name: 'water' });

test('the production server on PostgreSQL', async (t) => {
  let server: TestServer | undefined;
  // Registered before the scratch database's cleanup, so the server lets go of it before it is dropped.
  t.after(async () => server?.stop());
  const url = await scratchPostgresUrl(t);
  if (!url) return;
  // PostgreSQL deployments must share one hash secret (lib/keys/hash.ts); the CLI gets the same env.
  server = await startTestServer({ DATABASE_URL: url, KEY_HASH_SECRET: randomBytes(32).toString('hex') });
  const { mcpUrl } = server;

  await t.test('migrates and seeds the empty database at first start', () => {
    assert.match(server!.output(), /Database migrated: /);
    assert.match(server!.output(), /One-time password:/);
  });

  await t.test('initialize answers without a key', async () => {
    const answer = await postMcp(
      mcpUrl,
      rpc('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'pg-test', version: '1.0.0' },
      }),
    );
    assert.equal(answer.status, 200);
    assert.equal(initializeResult(answer).serverInfo.name, 'service_mcp');
  });

  await t.test('a tools/call with the demo key is answered and recorded in PostgreSQL', async () => {
    const answer = await postMcp(mcpUrl, QUERY_WATER(), bearer(server!.demoKey));
    assert.equal(answer.status, 200);
    assert.equal(toolResult(answer).isError, false);
    const report = server!.cliJson('key', 'show', server!.demoKey);
    assert.deepEqual(report.today, [{ tool: 'service_query_compound', successes: 1, failures: 0, rateLimited: 0 }]);
    assert.equal(report.lastCalls.length, 1);
    assert.equal(report.lastCalls[0].requestId, answer.headers.get('x-request-id'));
    assert.ok(report.lastUsedAt);
  });

  await t.test('a key disabled with the CLI is refused within 1 s (the change arrives by NOTIFY)', async () => {
    const { key } = server!.cliJson('key', 'create', '--owner', server!.adminEmail, '--tier', 'pro');
    // A first call puts the key in the server's cache, which the notification must clear.
    assert.equal((await postMcp(mcpUrl, rpc('ping'), bearer(key))).status, 200);
    const disabled = server!.cli('key', 'disable', key, '--reason', 'leaked in a log');
    assert.equal(disabled.status, 0, disabled.stderr);

    let answer: McpAnswer;
    const deadline = Date.now() + 1000;
    do answer = await postMcp(mcpUrl, rpc('ping'), bearer(key));
    while (answer.status === 200 && Date.now() < deadline);
    assert.equal(answer.status, 401, 'still accepted 1 s after it was disabled');
    assert.equal(errorBody(answer).error, 'invalid_api_key');
    assert.match(errorBody(answer).message, /disabled by the service's operator on /);
    assert.doesNotMatch(errorBody(answer).message, /leaked in a log/, 'the reason stays with the owner and staff');
  });

  await t.test('20 simultaneous calls on a key with a daily quota of 5 admit exactly 5', async () => {
    const { key } = server!.cliJson(
      'key',
      'create',
      '--owner',
      server!.adminEmail,
      '--daily-quota',
      '5',
      '--rps',
      '1000',
    );
    const answers = await Promise.all(Array.from({ length: 20 }, () => postMcp(mcpUrl, QUERY_WATER(), bearer(key))));
    assert.equal(answers.filter((a) => a.status === 200).length, 5);
    assert.equal(answers.filter((a) => a.status === 429).length, 15);
    const report = await reportCountingRateLimited(() => server!.cliJson('key', 'show', key), 15);
    assert.equal(report.usedToday, 5);
    assert.deepEqual(report.today, [{ tool: 'service_query_compound', successes: 5, failures: 0, rateLimited: 15 }]);
  });
});
