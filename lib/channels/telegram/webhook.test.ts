/**
 * The webhook's answers to what may arrive at /api/channels/telegram, handled in-process on a scratch
 * portal with the Bot API stand-in (test/system/telegram-channel.test.ts sends the same through a real
 * server): off without a token, nothing processed without the secret, bad bodies refused with a short
 * JSON error, a redelivered update answered once, a failure left for Telegram to deliver again.
 */
process.env.KEY_HASH_SECRET = 'x'.repeat(64);

import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { scratchPortal } from '../../../test/support/portal-db.ts';
import { startTelegramStandIn } from '../../../test/support/telegram-stand-in.ts';
import { privateText } from '../../../test/support/telegram-updates.ts';
import type { TelegramSettings } from '../../config.ts';
import { bodyCapFor } from '../../http/body-caps.ts';
import { answerTelegramWebhook, SECRET_HEADER, TELEGRAM_WEBHOOK_PATH, telegramWebhookOtherMethod } from './webhook.ts';

const SECRET = 'webhook-secret_0123456789';
const URL = 'http://localhost/api/channels/telegram';

async function setUp(t: TestContext) {
  const { db } = await scratchPortal(t);
  const standIn = await startTelegramStandIn();
  t.after(() => standIn.close());
  const settings: TelegramSettings = {
    botToken: standIn.token,
    webhookSecret: SECRET,
    language: 'en',
    apiRoot: standIn.apiRoot,
  };
  const post = (body: BodyInit, headers: Record<string, string> = { [SECRET_HEADER]: SECRET }) =>
    answerTelegramWebhook(
      new Request(URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
      } as RequestInit),
      settings,
      db,
    );
  return { db, standIn, settings, post };
}

async function refusal(answer: Response, status: number, error: string) {
  assert.equal(answer.status, status);
  assert.equal(answer.headers.get('content-type'), 'application/json');
  const body = await answer.json();
  assert.equal(body.error, error);
  assert.ok(body.message.length < 200 && !/\bat \S+:\d+/.test(body.message), 'a short message, no stack');
}

test('with the bot off, every method gets 404', async (t) => {
  const { db } = await scratchPortal(t);
  const post = new Request(URL, { method: 'POST', body: JSON.stringify(privateText(1, '/start')) });
  await refusal(await answerTelegramWebhook(post, undefined, db), 404, 'not_found');
  await refusal(telegramWebhookOtherMethod(undefined), 404, 'not_found');
});

test('with the bot on, methods other than POST get 405 naming POST', async (t) => {
  const { settings } = await setUp(t);
  const answer = telegramWebhookOtherMethod(settings);
  assert.equal(answer.headers.get('allow'), 'POST');
  await refusal(answer, 405, 'method_not_allowed');
});

test('an update from Telegram is answered in the sender’s chat, and a redelivery of it is not answered again', async (t) => {
  const { standIn, post } = await setUp(t);
  const update = JSON.stringify(privateText(7001, '/contact'));
  const first = await post(update);
  assert.equal(first.status, 200);
  assert.equal(await first.text(), '', 'an empty 200: a body could be read by Telegram as a method to call');
  assert.equal((await post(update)).status, 200);
  const sent = standIn.calls('sendMessage');
  assert.equal(sent.length, 1);
  assert.equal(sent[0].params.chat_id, 7001);
  assert.equal(standIn.calls('getMe').length, 1, 'the bot asks getMe once, not per update');
});

test('without the secret header, or with a wrong one, nothing is processed: 401', async (t) => {
  const { db, standIn, post } = await setUp(t);
  const cases: Record<string, string>[] = [
    {},
    { [SECRET_HEADER]: '' },
    { [SECRET_HEADER]: `${SECRET}x` },
    { [SECRET_HEADER]: SECRET.replace(/.$/, 'X') },
    { [SECRET_HEADER]: SECRET.toUpperCase() },
  ];
  for (const headers of cases)
    await refusal(await post(JSON.stringify(privateText(7002, '/newkey')), headers), 401, 'unauthorized');
  assert.equal(standIn.calls().length, 0);
  assert.equal(await db.channelDelivery.count(), 0);
  assert.equal(await db.channelBinding.count(), 0);
});

test('bodies that are not an update are refused with a short JSON error', async (t) => {
  const { standIn, post } = await setUp(t);
  const big = JSON.stringify({
    ...privateText(7003, '/key'),
    padding: 'x'.repeat(bodyCapFor(TELEGRAM_WEBHOOK_PATH).bytes),
  });
  const streamed = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(big));
      controller.close();
    },
  });
  await refusal(await post(big), 413, 'payload_too_large');
  await refusal(await post(streamed), 413, 'payload_too_large');
  await refusal(await post('{"update_id": 1, "message": '), 400, 'parse_error');
  await refusal(await post(new Uint8Array([0x7b, 0xff, 0x7d])), 400, 'parse_error');
  for (const body of ['[]', 'null', '42', '{}', '{"update_id": -1}', '{"update_id": "7"}', '{"update_id": 1.5}'])
    await refusal(await post(body), 400, 'invalid_update');
  assert.equal(standIn.calls('sendMessage').length, 0);
});

test('Telegram out of reach: 500 without details, and the redelivered update is answered', async (t) => {
  const { db, standIn, settings, post } = await setUp(t);
  const update = JSON.stringify(privateText(7004, '/contact'));
  // One update first, so the bot has its getMe and what fails is the reply itself.
  await post(JSON.stringify(privateText(7005, '/start')));
  await standIn.close();
  await refusal(await post(update), 500, 'internal_error');

  const back = await startTelegramStandIn();
  t.after(() => back.close());
  const moved = { ...settings, apiRoot: back.apiRoot };
  const retried = await answerTelegramWebhook(
    new Request(URL, { method: 'POST', headers: { [SECRET_HEADER]: SECRET }, body: update }),
    moved,
    db,
  );
  assert.equal(retried.status, 200);
  assert.deepEqual(
    back.calls('sendMessage').map((c) => c.params.chat_id),
    [7004],
  );
});
