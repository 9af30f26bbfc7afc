/**
 * Rolling a key with a grace period, as an operator does it with the CLI against a
 * production server: `key reissue <id> --grace 1h` leaves both secrets answering tools/call on /mcp, the
 * old key says when it stops (`key show`), disabling the old key during its grace stops it on the next
 * call, and a grace the CLI does not offer is a usage error listing the choices, with nothing changed.
 * The switch-off at the moment itself is judged by the verifier's test (lib/keys/store.test.ts), which
 * can choose the clock.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { errorBody, toolResult } from '../support/mcp-answers.ts';
import { bearer, postMcp, toolCall } from '../support/mcp-client.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

// Keys get --rps 1000 where both secrets are called back to back: they share one allowance, its per-second limit too.
const OWNER = 'ops@example.test';
const HOUR = 3_600_000;

let server: TestServer;
before(async () => {
  server = await startTestServer();
  server.cliOk('user', 'create', '--email', OWNER, '--password', 'correct horse battery');
});
after(() => server?.stop());

const callWith = (secret: string) =>
  postMcp(server.mcpUrl, toolCall('service_query_compound', { compound_name: 'water' }), bearer(secret));

async function assertAnswers(secret: string, what: string): Promise<void> {
  const answer = await callWith(secret);
  assert.equal(answer.status, 200, `${what}: ${answer.status} ${answer.text}`);
  assert.equal(toolResult(answer).isError, false, what);
}

test('key reissue --grace 1h: both secrets answer tools/call; key show says when the old one stops', async () => {
  const old = server.cliJson('key', 'create', '--owner', OWNER, '--name', 'deployed agent', '--rps', '1000');
  await assertAnswers(old.key, 'the key before the reissue');
  const started = Date.now();
  const next = server.cliJson('key', 'reissue', old.id, '--grace', '1h');
  const oldWorksUntil = next.oldWorksUntil!;
  const stopsAt = Date.parse(oldWorksUntil);
  assert.ok(stopsAt >= started + HOUR && stopsAt <= Date.now() + HOUR, `stops one hour on: ${oldWorksUntil}`);

  await assertAnswers(next.key, 'the new secret');
  await assertAnswers(old.key, 'the old secret during its grace period');

  const oldReport = server.cliJson('key', 'show', old.id);
  assert.deepEqual(
    [oldReport.status, oldReport.worksUntil, oldReport.replacedById],
    ['replaced', oldWorksUntil, next.id],
  );
  assert.deepEqual(server.cliJson('key', 'show', next.id).predecessor, {
    id: old.id,
    display: oldReport.display,
    worksUntil: oldWorksUntil,
  });
  assert.match(server.cliOk('key', 'show', old.id), new RegExp(`Status: +replaced — works until ${oldWorksUntil}`));
  assert.match(server.cliOk('key', 'show', next.id), new RegExp(`still works until ${oldWorksUntil}`));

  // The text form says it too.
  const other = server.cliJson('key', 'create', '--owner', OWNER, '--name', 'ci');
  assert.match(server.cliOk('key', 'reissue', other.id, '--grace', '7d'), /the old secret works until \S+, then stops/);

  // A leak during the grace period: disabling the old key stops it from the next call; the new one works on.
  server.cliOk('key', 'disable', old.id, '--reason', 'leaked in a CI log');
  const refused = await callWith(old.key);
  assert.equal(refused.status, 401, 'the disabled old secret is refused');
  assert.match(errorBody(refused).message ?? '', /disabled/);
  await assertAnswers(next.key, 'the new secret after the old one was disabled');
  const stopped = server.cliJson('key', 'show', old.id);
  assert.deepEqual([stopped.status, stopped.worksUntil], ['replaced', null]);
});

test('key reissue without --grace stops the old secret at once', async () => {
  const old = server.cliJson('key', 'create', '--owner', OWNER, '--name', 'laptop');
  const next = server.cliJson('key', 'reissue', old.id);
  assert.equal((await callWith(old.key)).status, 401);
  await assertAnswers(next.key, 'the new secret');
  assert.equal(server.cliJson('key', 'show', old.id).worksUntil, null);
});

test('key reissue --grace 2h is a usage error (exit 2) listing the choices, and changes nothing', async () => {
  const key = server.cliJson('key', 'create', '--owner', OWNER, '--name', 'refused');
  for (const grace of ['2h', '1H', '']) {
    const result = server.cli('key', 'reissue', key.id, '--grace', grace);
    assert.equal(result.status, 2, `--grace "${grace}": ${result.stderr}`);
    assert.match(result.stderr, new RegExp(`--grace must be one of none, 1h, 24h, 7d, got "${grace}"`));
    assert.match(result.stderr, /Usage: npm run --silent cli -- <command>/);
    assert.equal(result.stdout, '');
  }
  const report = server.cliJson('key', 'show', key.id);
  assert.deepEqual([report.status, report.replacedById, report.lineageKeys], ['active', null, 1]);
  await assertAnswers(key.key, 'the key after the refused reissues');
});
