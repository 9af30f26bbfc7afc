/** sendText, for messages nobody asked for (support's decision on an upgrade): to the user's private chat, fitted, plain. */
// This process's config() has no bot, whatever the environment running the tests holds.
delete process.env.TELEGRAM_BOT_TOKEN;

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GrammyError } from 'grammy';
import { startTelegramStandIn } from '../../../test/support/telegram-stand-in.ts';
import { sendText } from './api.ts';

test('sendText reaches the user’s private chat as plain text, cut to a message; Telegram’s refusal is thrown', async (t) => {
  const standIn = await startTelegramStandIn();
  t.after(() => standIn.close());
  const settings = { botToken: standIn.token, webhookSecret: 's', language: 'en' as const, apiRoot: standIn.apiRoot };

  await sendText('9001', `Your request was approved. ${'x'.repeat(5000)}`, settings);
  const [sent] = standIn.calls('sendMessage');
  assert.equal(sent.status, 200);
  assert.equal(sent.params.chat_id, '9001');
  assert.equal(String(sent.params.text).length, 4096);
  assert.ok(String(sent.params.text).startsWith('Your request was approved.'));
  assert.equal(sent.params.parse_mode, undefined);

  standIn.blocked.add('9002');
  await assert.rejects(
    sendText('9002', 'hello', settings),
    (error) => error instanceof GrammyError && error.error_code === 403,
  );
});

test('sendText with the bot off (no TELEGRAM_BOT_TOKEN in config()) says so', async () => {
  await assert.rejects(sendText('9003', 'hello'), /TELEGRAM_BOT_TOKEN is not set/);
});
