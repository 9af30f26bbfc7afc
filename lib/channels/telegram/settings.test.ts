/** The bot's settings: off without a token, refused without a well-formed secret, each error naming its variable. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readTelegramSettings } from './settings.ts';

const TOKEN = '123456789:AAE-abc_DEF';

test('without TELEGRAM_BOT_TOKEN the bot is off, whatever else is set', () => {
  assert.equal(readTelegramSettings({}), null);
  assert.equal(readTelegramSettings({ TELEGRAM_BOT_TOKEN: '', TELEGRAM_LANGUAGE: 'fr' }), null);
});

test('a token and a secret enable it: English and api.telegram.org by default', () => {
  assert.deepEqual(readTelegramSettings({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: 'a-b_C9' }), {
    token: TOKEN,
    webhookSecret: 'a-b_C9',
    language: 'en',
    apiRoot: 'https://api.telegram.org',
  });
  const zh = readTelegramSettings({
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_WEBHOOK_SECRET: 'x'.repeat(256),
    TELEGRAM_LANGUAGE: 'zh',
    TELEGRAM_API_ROOT: 'http://127.0.0.1:8081/',
  });
  assert.equal(zh?.language, 'zh');
  assert.equal(zh?.apiRoot, 'http://127.0.0.1:8081');
});

test('the bot is refused without a secret, or with one Telegram would not accept', () => {
  const cases: [string | undefined, RegExp][] = [
    [undefined, /TELEGRAM_WEBHOOK_SECRET must be set when TELEGRAM_BOT_TOKEN is/],
    ['', /TELEGRAM_WEBHOOK_SECRET must be set/],
    ['has space', /TELEGRAM_WEBHOOK_SECRET must be 1 to 256 characters .* it holds other characters/],
    ['ключ', /it holds other characters/],
    ['x'.repeat(257), /it is 257 characters long/],
  ];
  for (const [secret, message] of cases)
    assert.throws(
      () => readTelegramSettings({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: secret }),
      message,
      String(secret),
    );
});

test('a malformed token, language or API root is refused by name, and the token is never quoted', () => {
  const base = { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: 'secret' };
  assert.throws(
    () => readTelegramSettings({ ...base, TELEGRAM_BOT_TOKEN: 'bot123456789:AAE' }),
    (error: Error) => /^TELEGRAM_BOT_TOKEN must be/.test(error.message) && !error.message.includes('bot123456789'),
  );
  assert.throws(
    () => readTelegramSettings({ ...base, TELEGRAM_LANGUAGE: 'fr' }),
    /TELEGRAM_LANGUAGE must be en or zh, got "fr"/,
  );
  assert.throws(
    () => readTelegramSettings({ ...base, TELEGRAM_API_ROOT: 'api.telegram.org' }),
    /TELEGRAM_API_ROOT must be/,
  );
  assert.throws(() => readTelegramSettings({ ...base, TELEGRAM_API_ROOT: 'ftp://x' }), /TELEGRAM_API_ROOT must be/);
});
