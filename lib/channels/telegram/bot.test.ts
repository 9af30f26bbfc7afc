/**
 * The bot on a real SQLite portal, talking to a local stand-in for the Bot API: each command asks the
 * conversation for its intent and the reply goes to the sender's private chat as plain text; an update
 * is answered once; groups get a note and nothing else; a refusal from Telegram ends the update, a
 * network failure leaves it for Telegram to deliver again.
 */
process.env.KEY_HASH_SECRET = 'x'.repeat(64);

import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { scratchPortal } from '../../../test/support/portal-db.ts';
import { startTelegramStandIn, type TelegramStandIn } from '../../../test/support/telegram-stand-in.ts';
import { groupText, privateText } from '../../../test/support/telegram-updates.ts';
import type { TelegramSettings } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { displayKey } from '../../keys/format.ts';
import { createBindCode, redeemBindCode } from '../bindings.ts';
import { converse } from '../conversation.ts';
import { type Follower, type Intent, TELEGRAM_REPLY_LIMIT } from '../types.ts';
import { fitReply } from './api.ts';
import { createTelegramBot } from './bot.ts';

async function setUp(t: TestContext, settings: Partial<TelegramSettings> = {}) {
  const portal = await scratchPortal(t);
  const standIn = await startTelegramStandIn();
  t.after(() => standIn.close());
  const bot = createTelegramBot(
    { botToken: standIn.token, webhookSecret: 's3cret', language: 'en', apiRoot: standIn.apiRoot, ...settings },
    portal.db,
  );
  await bot.init();
  return { ...portal, standIn, bot };
}

/** What the conversation says to `userId` for `intent`, as the bot should have sent it. */
function expected(db: Db, userId: number, intent: Intent): Promise<string> {
  const follower: Follower = { channel: 'telegram', id: String(userId) };
  return converse({ db, language: 'en', limit: TELEGRAM_REPLY_LIMIT }, follower, intent);
}

function sent(standIn: TelegramStandIn) {
  return standIn.calls('sendMessage').map((c) => c.params);
}

test('each command is answered in the sender’s private chat with the conversation’s reply, as plain text', async (t) => {
  const { db, standIn, bot, ada, issue } = await setUp(t);
  await issue(ada, 'laptop');
  const cases: [string, Intent][] = [
    ['/start', { kind: 'welcome' }],
    ['/key', { kind: 'key_usage', part: 'keys' }],
    ['/usage', { kind: 'key_usage', part: 'usage' }],
    ['/pro', { kind: 'upgrade', details: '' }],
    ['/contact', { kind: 'contact' }],
    ['/help', { kind: 'text', text: '/help' }],
    ['/key@chemflow_test_bot', { kind: 'key_usage', part: 'keys' }],
    ['what can you do?', { kind: 'text', text: 'what can you do?' }],
  ];
  const replies = new Set<string>();
  for (const [index, [text, intent]] of cases.entries()) {
    // Bound, so that keys, usage and Pro each have their own answer (unbound, all three say "bind first").
    const userId = 5000 + index;
    const { code } = await createBindCode(db, ada.id);
    await redeemBindCode(db, { channel: 'telegram', id: String(userId) }, code);
    await bot.handleUpdate(privateText(userId, text));
    const [reply] = sent(standIn).slice(-1);
    assert.equal(reply.chat_id, userId, text);
    assert.equal(reply.text, await expected(db, userId, intent), text);
    assert.equal(reply.parse_mode, undefined, 'nothing in a reply is read as markup');
    assert.deepEqual(reply.link_preview_options, { is_disabled: true });
    replies.add(String(reply.text));
  }
  assert.equal(sent(standIn).length, cases.length);
  assert.equal(replies.size, cases.length - 1, 'every intent but the repeated /key has an answer of its own');
});

test('/bind CODE binds the follower to the code’s account; then /key lists the account’s keys', async (t) => {
  const { db, standIn, bot, ada, issue } = await setUp(t);
  const { key } = await issue(ada, 'laptop');
  const { code } = await createBindCode(db, ada.id);
  await bot.handleUpdate(privateText(6001, `/bind ${code}`));
  const binding = await db.channelBinding.findUniqueOrThrow({
    where: { channel_externalId: { channel: 'telegram', externalId: '6001' } },
  });
  assert.equal(binding.userId, ada.id);
  assert.match(String(sent(standIn)[0].text), /ada@example\.test/);

  await bot.handleUpdate(privateText(6001, '/key'));
  assert.ok(String(sent(standIn)[1].text).includes(displayKey(key)), String(sent(standIn)[1].text));
});

test('/start with a bind code (a t.me/<bot>?start=CODE link) binds; without one it welcomes', async (t) => {
  const { db, standIn, bot, bob } = await setUp(t);
  const { code } = await createBindCode(db, bob.id);
  await bot.handleUpdate(privateText(6002, `/start ${code.replace('-', '')}`));
  const binding = await db.channelBinding.findFirst({ where: { channel: 'telegram', externalId: '6002' } });
  assert.equal(binding?.userId, bob.id);
  assert.match(String(sent(standIn)[0].text), /bob@example\.test/);
});

test('/pro with details files the portal’s upgrade request, marked as from Telegram', async (t) => {
  const { db, bot, ada, issue } = await setUp(t);
  await issue(ada, 'laptop');
  const { code } = await createBindCode(db, ada.id);
  await bot.handleUpdate(privateText(6003, `/bind ${code}`));
  await bot.handleUpdate(privateText(6003, '/pro 5000 screening solvents for a pilot plant'));
  const request = await db.upgradeRequest.findFirstOrThrow({ where: { userId: ada.id } });
  assert.equal(request.channel, 'telegram');
});

test('/newkey makes an account and a free key; its secret is sent to the follower once', async (t) => {
  const { db, standIn, bot } = await setUp(t);
  const update = privateText(6004, '/newkey');
  await bot.handleUpdate(update);
  await bot.handleUpdate(update);
  const replies = sent(standIn);
  assert.equal(replies.length, 1, 'the same update twice is answered once');
  assert.match(String(replies[0].text), /cf_[A-Za-z0-9]{20,}/);
  const binding = await db.channelBinding.findFirstOrThrow({ where: { channel: 'telegram', externalId: '6004' } });
  assert.equal(await db.apiKey.count({ where: { ownerId: binding.userId } }), 1);
});

test('in a group, a command to the bot gets a note to message it privately; other messages get nothing', async (t) => {
  const { db, standIn, bot, ada, issue } = await setUp(t);
  await issue(ada, 'laptop');
  const { code } = await createBindCode(db, ada.id);
  await bot.handleUpdate(privateText(6005, `/bind ${code}`));
  const before = sent(standIn).length;

  await bot.handleUpdate(groupText(-100123, 6005, '/key@chemflow_test_bot'));
  await bot.handleUpdate(groupText(-100123, 6005, '/key'));
  await bot.handleUpdate(groupText(-100123, 6005, '/key@some_other_bot'));
  await bot.handleUpdate(groupText(-100123, 6005, 'hello everyone'));
  const notes = sent(standIn).slice(before);
  assert.equal(notes.length, 2, JSON.stringify(notes));
  for (const note of notes) {
    assert.equal(note.chat_id, -100123);
    assert.match(String(note.text), /private chat only.*https:\/\/t\.me\/chemflow_test_bot/);
    assert.doesNotMatch(String(note.text), /cf_/);
  }
});

test('Chinese replies with TELEGRAM_LANGUAGE=zh', async (t) => {
  const { db, standIn, bot } = await setUp(t, { language: 'zh' });
  await bot.handleUpdate(privateText(6006, '/contact'));
  const follower: Follower = { channel: 'telegram', id: '6006' };
  const zh = await converse({ db, language: 'zh', limit: TELEGRAM_REPLY_LIMIT }, follower, { kind: 'contact' });
  assert.equal(sent(standIn)[0].text, zh);
  await bot.handleUpdate(groupText(-100123, 6006, '/key'));
  assert.match(String(sent(standIn)[1].text), /私聊/);
});

test('a user who blocked the bot: the refusal is final, the update counts as answered', async (t) => {
  const { standIn, bot } = await setUp(t);
  standIn.blocked.add('6007');
  const update = privateText(6007, '/key');
  await bot.handleUpdate(update);
  await bot.handleUpdate(update);
  const tries = standIn.calls('sendMessage');
  assert.equal(tries.length, 1);
  assert.equal(tries[0].status, 403);
});

test('Telegram out of reach: the update fails and is answered when it is delivered again', async (t) => {
  const { db, standIn, bot } = await setUp(t);
  await standIn.close();
  const update = privateText(6008, '/contact');
  await assert.rejects(bot.handleUpdate(update), /sendMessage/);
  assert.equal(await db.channelDelivery.count({ where: { deliveryId: `update:${update.update_id}` } }), 0);

  const back = await startTelegramStandIn();
  t.after(() => back.close());
  const retried = createTelegramBot(
    { botToken: back.token, webhookSecret: 's3cret', language: 'en', apiRoot: back.apiRoot },
    db,
  );
  await retried.init();
  await retried.handleUpdate(update);
  assert.equal(back.calls('sendMessage').length, 1);
});

test('a reply longer than a message is cut to 4096 characters, never inside a surrogate pair', () => {
  assert.equal(fitReply('short'), 'short');
  const long = fitReply('x'.repeat(5000));
  assert.equal(long.length, 4096);
  assert.ok(long.endsWith('…'));
  const emoji = fitReply(`${'x'.repeat(4094)}😀😀`);
  assert.ok(emoji.length <= 4096);
  assert.ok(!/[\uD800-\uDBFF]…$/.test(emoji), 'no lone high surrogate before the ellipsis');
});
