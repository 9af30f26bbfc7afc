import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_WECHAT_API_BASE, WechatSettingsError, wechatApiSettings, wechatSettings } from './settings.ts';

const AES_KEY = 'jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C';

test('no WECHAT_TOKEN: the endpoint is off', () => {
  assert.equal(wechatSettings({}), null);
  assert.equal(wechatSettings({ WECHAT_ENCODING_AES_KEY: AES_KEY, WECHAT_APP_ID: 'wx1' }), null);
});

test('plain mode, Chinese by default, the API off without a secret', () => {
  assert.deepEqual(wechatSettings({ WECHAT_TOKEN: 'QDG6eK' }), {
    token: 'QDG6eK',
    language: 'zh',
    crypto: undefined,
    api: undefined,
  });
});

test('safe mode decodes the 43-character key to 32 bytes; the API base loses its trailing slash', () => {
  const settings = wechatSettings({
    WECHAT_TOKEN: 'QDG6eK',
    WECHAT_ENCODING_AES_KEY: AES_KEY,
    WECHAT_APP_ID: 'wx5823bf96d3bd56c7',
    WECHAT_APP_SECRET: 's3cret',
    WECHAT_LANGUAGE: 'en',
    WECHAT_API_BASE: 'http://127.0.0.1:9/',
  });
  assert.equal(settings?.crypto?.aesKey.length, 32);
  assert.equal(settings?.crypto?.appId, 'wx5823bf96d3bd56c7');
  assert.equal(settings?.language, 'en');
  assert.deepEqual(settings?.api, { appId: 'wx5823bf96d3bd56c7', appSecret: 's3cret', apiBase: 'http://127.0.0.1:9' });
  assert.equal(wechatApiSettings({ WECHAT_APP_ID: 'wx1', WECHAT_APP_SECRET: 's' })?.apiBase, DEFAULT_WECHAT_API_BASE);
});

test('bad values are errors naming the variable, and never echo the AES key', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ WECHAT_TOKEN: 'QDG6eK', WECHAT_ENCODING_AES_KEY: AES_KEY.slice(1) }, /^WECHAT_ENCODING_AES_KEY .*42 characters/],
    [{ WECHAT_TOKEN: 'QDG6eK', WECHAT_ENCODING_AES_KEY: `${AES_KEY.slice(1)}!` }, /^WECHAT_ENCODING_AES_KEY/],
    [{ WECHAT_TOKEN: 'QDG6eK', WECHAT_ENCODING_AES_KEY: AES_KEY }, /WECHAT_APP_ID/],
    [{ WECHAT_TOKEN: 'QDG6eK', WECHAT_LANGUAGE: 'fr' }, /^WECHAT_LANGUAGE must be zh or en, got "fr"/],
    [{ WECHAT_TOKEN: 'a b' }, /^WECHAT_TOKEN/],
    [{ WECHAT_TOKEN: 'x'.repeat(33) }, /^WECHAT_TOKEN/],
    [
      { WECHAT_TOKEN: 'QDG6eK', WECHAT_APP_ID: 'wx1', WECHAT_APP_SECRET: 's', WECHAT_API_BASE: 'api.weixin.qq.com' },
      /^WECHAT_API_BASE/,
    ],
    [
      { WECHAT_TOKEN: 'QDG6eK', WECHAT_APP_ID: 'wx1', WECHAT_APP_SECRET: 's', WECHAT_API_BASE: 'ftp://x' },
      /^WECHAT_API_BASE/,
    ],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => wechatSettings(env),
      (error) =>
        error instanceof WechatSettingsError &&
        message.test(error.message) &&
        !error.message.includes(AES_KEY.slice(1, 20)),
      JSON.stringify(env),
    );
  }
});
