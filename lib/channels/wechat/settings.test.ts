import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WechatSettings as WechatConfig } from '../../config.ts';
import { wechatApiSettings, wechatSettings } from './settings.ts';

const BASE: WechatConfig = { token: 'QDG6eK', language: 'zh', apiBase: 'https://api.weixin.qq.com' };
const AES_KEY = 'jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C';

test('no WeChat settings (WECHAT_TOKEN unset): the door is closed and the API off', () => {
  assert.equal(wechatSettings(undefined), null);
  assert.equal(wechatApiSettings(undefined), null);
});

test('plain mode: the token, no crypto, no API without both app id and secret', () => {
  assert.deepEqual(wechatSettings(BASE), { token: 'QDG6eK', crypto: undefined, api: undefined });
  assert.equal(wechatSettings({ ...BASE, appId: 'wx5823bf96d3bd56c7' })?.api, undefined);
});

test('safe mode decodes the 43-character EncodingAESKey to the 32-byte AES key', () => {
  const settings = wechatSettings({
    ...BASE,
    encodingAesKey: AES_KEY,
    appId: 'wx5823bf96d3bd56c7',
    appSecret: 's3cret',
    apiBase: 'http://127.0.0.1:9',
  });
  assert.equal(settings?.crypto?.aesKey.length, 32);
  assert.equal(settings?.crypto?.appId, 'wx5823bf96d3bd56c7');
  assert.deepEqual(settings?.api, { appId: 'wx5823bf96d3bd56c7', appSecret: 's3cret', apiBase: 'http://127.0.0.1:9' });
});
