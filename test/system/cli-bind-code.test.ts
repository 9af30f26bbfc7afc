/**
 * `cli user bind-code` as an operator (and a script) runs it: a line saying how long the code works and
 * where to send it, then the code alone on the last line; the code binds a follower to that account,
 * once; a newer code stops the older one; an unknown email is refused with exit 1, a missing one is a
 * usage error.
 */
// test-isolation: process (it points KEY_HASH_SECRET_FILE at its installation's secret, which lib/keys/hash.ts reads once per process)
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, test } from 'node:test';
import { redeemBindCode } from '../../lib/channels/bindings.ts';
import { createDb } from '../../lib/db/client.ts';
import { cliChecks } from '../support/cli-checks.ts';
import { isolatedEnv } from '../support/test-server.ts';

const { dataDir, env } = isolatedEnv();
// Bind codes are stored as digests under the key-hash secret: this process reads the CLI's.
process.env.KEY_HASH_SECRET_FILE = env.KEY_HASH_SECRET_FILE;
const db = createDb(env.DATABASE_URL!);
after(async () => {
  await db.$disconnect();
  rmSync(dataDir, { recursive: true, force: true });
});

const { succeeds, fails } = cliChecks(env);
const CODE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** The command's output lines and the code on its last line. */
function bindCode(email: string) {
  const lines = succeeds('user', 'bind-code', '--email', email).trimEnd().split('\n');
  return { lines, code: lines.at(-1)! };
}

test('prints when the code stops working and where to send it, then the code alone; the code binds once', async () => {
  succeeds('user', 'create', '--email', 'ada@example.test', '--password', 'correct horse battery');
  const before = Date.now();
  const { lines, code } = bindCode(' ADA@Example.test ');
  const afterRun = Date.now();
  assert.equal(lines.length, 2);
  assert.match(code, CODE);
  const [, until] =
    /^Bind code for ada@example\.test: it works for 10 minutes, until (\d{4}-\d\d-\d\d \d\d:\d\d) UTC, once; any earlier code stops working\. Send it as a message to the WeChat Official Account, or \/bind (\S+) to the Telegram bot\.$/.exec(
      lines[0],
    ) ?? [];
  assert.ok(until, lines[0]);
  assert.ok(lines[0].endsWith(`/bind ${code} to the Telegram bot.`));
  // The printed minute is the expiry's, which is 10 minutes after the command ran.
  const minute = (ms: number) => new Date(ms + 10 * 60_000).toISOString().slice(0, 16).replace('T', ' ');
  assert.ok([minute(before), minute(afterRun)].includes(until), `${until} is not 10 minutes after the run`);

  const outcome = await redeemBindCode(db, { channel: 'wechat', id: 'oFollower1' }, code);
  assert.equal(outcome.kind, 'bound');
  assert.equal(outcome.kind === 'bound' && outcome.viewer.email, 'ada@example.test');
  assert.equal((await redeemBindCode(db, { channel: 'telegram', id: '42' }, code)).kind, 'no_such_code');
});

test('a newer code stops the older one', async () => {
  const older = bindCode('ada@example.test').code;
  const newer = bindCode('ada@example.test').code;
  assert.equal((await redeemBindCode(db, { channel: 'telegram', id: '7' }, older)).kind, 'no_such_code');
  assert.equal((await redeemBindCode(db, { channel: 'telegram', id: '7' }, newer)).kind, 'bound');
});

test('an unknown email is refused with exit 1; no email is a usage error', () => {
  fails(
    1,
    /^No user with email nobody@example\.test; create one with "user create"\.\n$/,
    'user',
    'bind-code',
    '--email',
    'nobody@example.test',
  );
  fails(2, /user bind-code needs --email\./, 'user', 'bind-code');
  fails(2, /Unexpected argument/, 'user', 'bind-code', '--email', 'ada@example.test', 'extra');
});
