import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TELEGRAM_REPLY_LIMIT, WECHAT_REPLY_LIMIT } from '../types.ts';
import { fitReply } from './reply-text.ts';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

test('a reply that fits is left alone', () => {
  const text = '密'.repeat(682); // 2046 bytes
  assert.equal(fitReply(text, WECHAT_REPLY_LIMIT), text);
});

test('a reply over 2048 UTF-8 bytes is cut on a whole character, marked, and fits', () => {
  for (const text of ['密'.repeat(1000), 'a'.repeat(5000), `${'a'.repeat(2046)}🧪🧪`, `${'密'.repeat(683)}ab`]) {
    const cut = fitReply(text, WECHAT_REPLY_LIMIT);
    assert.ok(bytes(cut) <= 2048, `${bytes(cut)} bytes`);
    assert.ok(cut.endsWith('…'));
    assert.ok(text.startsWith(cut.slice(0, -1)), 'a prefix of the reply');
    assert.ok(bytes(cut) > 2048 - 4 - 3, 'no more cut than one character and the mark need');
    assert.doesNotMatch(cut, /[\ud800-\udbff](?![\udc00-\udfff])/, 'no half surrogate pair');
  }
});

test('the limit’s own measure is used (characters for Telegram)', () => {
  const cut = fitReply('密'.repeat(5000), TELEGRAM_REPLY_LIMIT);
  assert.equal(cut.length, 4096);
});
