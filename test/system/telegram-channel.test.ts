/**
 * The Telegram door against a production server whose TELEGRAM_API_ROOT is a local
 * stand-in for the Bot API: updates are posted as Telegram posts them, and each reply is read where
 * Telegram would deliver it, from the stand-in's sendMessage calls. The secret-token header guards the
 * webhook, a redelivered update is answered once, bad bodies get a short JSON error, a bind code from the
 * server's database binds, groups get no account data, and `cli channel telegram webhook` sets the
 * webhook and the command menu. A bot token without a secret stops the server at start.
 */
// test-isolation: process (it points KEY_HASH_SECRET_FILE at its server's secret, which lib/keys/hash.ts reads once per process)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { createBindCode } from '../../lib/channels/bindings.ts';
import { createDb, type Db } from '../../lib/db/client.ts';
import { runCliInProcessAsync } from '../support/cli-in-process.ts';
import { startTelegramStandIn, type TelegramStandIn } from '../support/telegram-stand-in.ts';
import { groupText, privateText } from '../support/telegram-updates.ts';
import { freePort, ROOT, START_NODE_ARGS, startTestServer, type TestServer } from '../support/test-server.ts';

const SECRET = 'Tg_webhook-secret_4b2f9e';
const PATH = '/api/channels/telegram';
const OWNER = 'chemist@example.test';

let standIn: TelegramStandIn;
let server: TestServer;
let db: Db;

before(async () => {
  standIn = await startTelegramStandIn();
  server = await startTestServer({
    TELEGRAM_BOT_TOKEN: standIn.token,
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_API_ROOT: standIn.apiRoot,
  });
  // Bind codes are stored hashed under the server's key-hash secret.
  process.env.KEY_HASH_SECRET_FILE = server.env.KEY_HASH_SECRET_FILE;
  db = createDb(server.env.DATABASE_URL);
  server.cliOk('user', 'create', '--email', OWNER, '--password', 'correct horse battery');
});

after(async () => {
  await db?.$disconnect();
  await server?.stop();
  await standIn?.close();
});

function deliver(body: string, headers: Record<string, string> = { 'x-telegram-bot-api-secret-token': SECRET }) {
  return fetch(`${server.baseUrl}${PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

/** The texts sent to `chatId` so far. */
const sentTo = (chatId: number) =>
  standIn
    .calls('sendMessage')
    .filter((c) => c.params.chat_id === chatId)
    .map((c) => String(c.params.text));

async function assertRefused(answer: Response, status: number, error: string) {
  const text = await answer.text();
  assert.equal(answer.status, status, text);
  assert.equal(answer.headers.get('content-type'), 'application/json');
  assert.equal(JSON.parse(text).error, error);
  assert.ok(text.length < 300 && !/\bat \S+ \(|node_modules|\.ts:\d+/.test(text), `no stack trace: ${text}`);
}

test('a message to the bot is answered in the sender’s private chat, as plain text', async () => {
  const answer = await deliver(JSON.stringify(privateText(8001, '/start')));
  assert.equal(answer.status, 200);
  const [reply] = standIn.calls('sendMessage').filter((c) => c.params.chat_id === 8001);
  assert.ok(reply, 'a reply was sent to the chat');
  assert.match(String(reply.params.text), /Welcome/);
  assert.equal(reply.params.parse_mode, undefined);
  assert.equal(standIn.calls('getMe').length, 1);
});

test('without the secret header, or with a wrong one, the update is refused and nothing is sent', async () => {
  const before = standIn.calls().length;
  const update = JSON.stringify(privateText(8002, '/newkey'));
  await assertRefused(await deliver(update, {}), 401, 'unauthorized');
  await assertRefused(await deliver(update, { 'x-telegram-bot-api-secret-token': `${SECRET}0` }), 401, 'unauthorized');
  await assertRefused(await deliver(update, { 'x-telegram-bot-api-secret-token': 'x' }), 401, 'unauthorized');
  assert.equal(standIn.calls().length, before);
  assert.equal(await db.channelBinding.count({ where: { externalId: '8002' } }), 0, 'no account was made');
});

test('the same update delivered twice is answered once', async () => {
  const update = JSON.stringify(privateText(8003, '/contact'));
  assert.equal((await deliver(update)).status, 200);
  assert.equal((await deliver(update)).status, 200);
  assert.equal(sentTo(8003).length, 1);
});

test('malformed, oversized and non-update bodies get 400 or 413 with a short JSON error', async () => {
  const before = standIn.calls('sendMessage').length;
  await assertRefused(await deliver('{"update_id": 5, "message": {'), 400, 'parse_error');
  await assertRefused(await deliver('{"message": {}}'), 400, 'invalid_update');
  const oversized = JSON.stringify({ ...privateText(8004, '/key'), padding: 'x'.repeat(200 * 1024) });
  await assertRefused(await deliver(oversized), 413, 'payload_too_large');
  assert.equal(standIn.calls('sendMessage').length, before);
  const get = await fetch(`${server.baseUrl}${PATH}`);
  assert.equal(get.headers.get('allow'), 'POST');
  await assertRefused(get, 405, 'method_not_allowed');
});

test('/bind with a code from the account binds the follower; /key then shows the account’s key', async () => {
  const owner = await db.user.findUniqueOrThrow({ where: { email: OWNER } });
  const key = server.cliJson('key', 'create', '--owner', OWNER, '--name', 'telegram-test');
  const { code } = await createBindCode(db, owner.id);

  assert.equal((await deliver(JSON.stringify(privateText(8005, `/bind ${code}`)))).status, 200);
  const binding = await db.channelBinding.findFirstOrThrow({ where: { channel: 'telegram', externalId: '8005' } });
  assert.equal(binding.userId, owner.id);
  assert.ok(sentTo(8005)[0].includes(OWNER), sentTo(8005)[0]);
  const audit = await db.auditEvent.findFirstOrThrow({ where: { action: 'channel.bind', targetUserId: owner.id } });
  assert.match(audit.actorLabel ?? '', /via Telegram/);

  assert.equal((await deliver(JSON.stringify(privateText(8005, '/key')))).status, 200);
  const shown = sentTo(8005)[1];
  assert.match(key.start, /^cf_\w{4}…\w{4}$/);
  assert.ok(shown.includes(key.start), shown);
  assert.ok(!shown.includes(key.key), 'the secret is never shown again');
});

test('in a group, a command gets a note to message the bot privately and no account data', async () => {
  const owner = await db.user.findUniqueOrThrow({ where: { email: OWNER } });
  const { code } = await createBindCode(db, owner.id);
  await deliver(JSON.stringify(privateText(8006, `/bind ${code}`)));
  const group = -1001234;
  assert.equal((await deliver(JSON.stringify(groupText(group, 8006, '/key@chemflow_test_bot')))).status, 200);
  assert.equal((await deliver(JSON.stringify(groupText(group, 8006, 'what are my keys?')))).status, 200);
  const notes = sentTo(group);
  assert.equal(notes.length, 1, JSON.stringify(notes));
  assert.match(notes[0], /private chat only.*https:\/\/t\.me\/chemflow_test_bot/);
  assert.doesNotMatch(notes[0], /cf_|@example\.test/);
});

test('cli channel telegram webhook prints the setup with the secret masked, and --push sends it', async () => {
  const url = `https://chem.example.test${PATH}`;
  const printed = await runCliInProcessAsync(server.env, ['channel', 'telegram', 'webhook', '--url', url]);
  assert.equal(printed.status, 0, printed.stderr);
  assert.ok(!printed.stdout.includes(SECRET), 'the secret is not printed');
  assert.match(printed.stdout, new RegExp(`"url": "${url}"`));
  assert.match(printed.stdout, /"secret_token": "<TELEGRAM_WEBHOOK_SECRET, 24 characters>"/);
  assert.match(
    printed.stdout,
    /"command": "key"[\s\S]*"command": "usage"[\s\S]*"command": "pro"[\s\S]*"command": "bind"/,
  );
  assert.equal(standIn.calls('setWebhook').length, 0, 'nothing is sent without --push');

  const pushed = await runCliInProcessAsync(server.env, ['channel', 'telegram', 'webhook', '--url', url, '--push']);
  assert.equal(pushed.status, 0, pushed.stderr);
  const [setWebhook] = standIn.calls('setWebhook');
  assert.deepEqual(setWebhook.params, { url, secret_token: SECRET, allowed_updates: ['message'] });
  const [setMyCommands] = standIn.calls('setMyCommands');
  assert.equal(setMyCommands.status, 200);
  const commands = (setMyCommands.params.commands as { command: string }[]).map((c) => c.command);
  assert.deepEqual(commands, ['key', 'usage', 'pro', 'bind', 'unbind', 'newkey', 'contact', 'help']);

  const insecure = await runCliInProcessAsync(server.env, [
    'channel',
    'telegram',
    'webhook',
    '--url',
    'http://chem.example.test/x',
  ]);
  assert.equal(insecure.status, 2);
  assert.match(insecure.stderr, /--url must be https:\/\//);
  const wrongToken = await runCliInProcessAsync({ ...server.env, TELEGRAM_BOT_TOKEN: '42:not-the-token' }, [
    'channel',
    'telegram',
    'webhook',
    '--url',
    url,
    '--push',
  ]);
  assert.equal(wrongToken.status, 1);
  assert.match(wrongToken.stderr, /setWebhook.*401: Unauthorized/);
  assert.ok(!wrongToken.stderr.includes('not-the-token'), 'the token is not printed');
  const off = await runCliInProcessAsync({ ...server.env, TELEGRAM_BOT_TOKEN: '' }, [
    'channel',
    'telegram',
    'webhook',
    '--url',
    url,
  ]);
  assert.equal(off.status, 1);
  assert.match(off.stderr, /TELEGRAM_BOT_TOKEN is not set/);
});

test('a bot token without TELEGRAM_WEBHOOK_SECRET stops the server at start, naming the variable', async () => {
  // The running server's installation with the secret removed: the start stops before the database is touched.
  const env = { ...server.env, PORT: String(await freePort()), TELEGRAM_WEBHOOK_SECRET: '' };
  const start = spawnSync(process.execPath, [...START_NODE_ARGS], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(start.status, 1, start.stdout + start.stderr);
  assert.match(start.stderr, /Could not start: TELEGRAM_BOT_TOKEN needs TELEGRAM_WEBHOOK_SECRET/);
  assert.doesNotMatch(start.stdout, /ChemFlow is serving/);
});
