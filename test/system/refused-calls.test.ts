/**
 * Calls refused because their key no longer works, against a production server behind
 * a trusted proxy: a disabled, an expired and a replaced key each answer 401 and are recorded for their
 * key with the client address and the reason; `key show --json` reports them (refusedToday, the last few);
 * a flood of refusals keeps only the newest 10 details but counts every one; and refusals still pending
 * when the server stops are written before it exits.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createDb } from '../../lib/db/client.ts';
import type { KeyReport } from '../../lib/usage/key-report.ts';
import { errorBody } from '../support/mcp-answers.ts';
import { bearer, postMcp, toolCall } from '../support/mcp-client.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const OWNER = 'ops@example.test';
const LEAKER = '203.0.113.7';

let server: TestServer;
before(async () => {
  server = await startTestServer({ TRUST_PROXY: '1' });
  server.cliOk('user', 'create', '--email', OWNER, '--password', 'correct horse battery');
});
after(() => server?.stop());

// connection: close, so no socket of the flood is reused after the server has timed it out.
const callFrom = (address: string, secret: string) =>
  postMcp(server.mcpUrl, toolCall('service_query_compound', { compound_name: 'water' }), {
    ...bearer(secret),
    'x-forwarded-for': address,
    'x-forwarded-proto': 'https',
    connection: 'close',
  });

async function assertRefused(secret: string, address: string, message: RegExp): Promise<void> {
  const answer = await callFrom(address, secret);
  assert.equal(answer.status, 401, answer.text);
  assert.equal(errorBody(answer).error, 'invalid_api_key');
  assert.match(errorBody(answer).message, message);
  // What stopped the key and when, never the words its owner or staff typed.
  assert.doesNotMatch(answer.text, /public gist|reason/i);
}

/** Refusals are written about once a second: the report once it shows `count` of them today. */
async function reportWithRefused(id: string, count: number): Promise<KeyReport> {
  for (let tries = 0; ; tries++) {
    const report = server.cliJson('key', 'show', id);
    if (report.refusedToday >= count || tries === 40) return report;
    await new Promise((done) => setTimeout(done, 250));
  }
}

test('a disabled key: every refused call is counted for it, with when, from where and why', async () => {
  const key = server.cliJson('key', 'create', '--owner', OWNER, '--name', 'leaked agent');
  server.cliOk('key', 'disable', key.id, '--reason', 'found in a public gist');
  const started = Date.now();
  for (const address of [LEAKER, '198.51.100.20', LEAKER])
    await assertRefused(key.key, address, /disabled by the service's operator on /);

  const report = await reportWithRefused(key.id, 3);
  assert.deepEqual([report.refusedToday, report.refused.total, report.refused.today], [3, 3, 3]);
  assert.equal(report.refused.since, report.quotaDay);
  assert.deepEqual(
    report.refused.recent.map((r) => [r.clientAddress, r.reason, r.key]),
    [
      [LEAKER, 'disabled', null],
      ['198.51.100.20', 'disabled', null],
      [LEAKER, 'disabled', null],
    ],
  );
  const last = Date.parse(report.refused.recent[0].at);
  assert.ok(last >= started && last <= Date.now(), report.refused.recent[0].at);
  // The refused calls used none of the quota.
  assert.equal(report.usedToday, 0);
  const printed = server.cliOk('key', 'show', key.id);
  assert.match(
    printed,
    new RegExp(`Refused: +3 calls with a secret that no longer works since ${report.quotaDay}, 3 today`),
  );
  assert.match(printed, /from 203\.0\.113\.7 +key disabled/);
});

test('an expired key and a replaced one are refused for what they are, and recorded so', async () => {
  const expiring = server.cliJson('key', 'create', '--owner', OWNER, '--name', 'expiring');
  // The CLI takes only future expiries; the server sees the change like any other write to the key.
  const db = createDb(server.env.DATABASE_URL);
  try {
    await db.apiKey.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  } finally {
    await db.$disconnect();
  }
  await assertRefused(expiring.key, LEAKER, /expired on/);
  const expired = await reportWithRefused(expiring.id, 1);
  assert.deepEqual(
    expired.refused.recent.map((r) => r.reason),
    ['expired'],
  );

  const old = server.cliJson('key', 'create', '--owner', OWNER, '--name', 'rolled');
  const next = server.cliJson('key', 'reissue', old.id);
  await assertRefused(old.key, LEAKER, /replaced on .*only the new secret works/);
  // The successor's report covers its chain, and names the old secret that was tried.
  const successor = await reportWithRefused(next.id, 1);
  assert.equal(successor.refusedToday, 1);
  assert.equal(successor.refused.recent[0].reason, 'replaced');
  assert.deepEqual(successor.refused.recent[0].key, {
    id: old.id,
    display: server.cliJson('key', 'show', old.id).display,
  });
});

test('a flood of refused calls is counted in full but keeps only the newest 10 details', async () => {
  const key = server.cliJson('key', 'create', '--owner', OWNER, '--name', 'flooded');
  server.cliOk('key', 'disable', key.id, '--reason', 'abuse');
  const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => callFrom(`198.51.100.${i % 100}`, key.key)));
  assert.deepEqual([...new Set(answers.map((a) => a.status))], [401]);
  const report = await reportWithRefused(key.id, 200);
  assert.equal(report.refusedToday, 200);
  assert.equal(report.refused.recent.length, 10);
});

test('refusals still pending when the server stops are written before it exits', async () => {
  const key = server.cliJson('key', 'create', '--owner', OWNER, '--name', 'last words');
  server.cliOk('key', 'disable', key.id, '--reason', 'test');
  await assertRefused(key.key, LEAKER, /disabled by the service's operator on /);
  await assertRefused(key.key, LEAKER, /disabled by the service's operator on /);
  assert.equal(await server.stop({ keepData: true }), 0);
  server = await startTestServer({ TRUST_PROXY: '1' }, { restartOf: server });
  assert.equal(server.cliJson('key', 'show', key.id).refusedToday, 2);
});
