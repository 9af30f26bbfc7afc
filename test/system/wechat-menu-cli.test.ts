/**
 * `cli channel wechat menu`: prints the menu JSON for the platform's menu API in the configured
 * language, and with --push sends it through a local stand-in of the platform API (WECHAT_API_BASE),
 * printing what the platform answered.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { wechatMenu } from '../../lib/channels/wechat/menu.ts';
import { runCliInProcessAsync } from '../support/cli-in-process.ts';
import { type EnvOverrides, isolatedEnv } from '../support/test-server.ts';
import { startWechatApiStandIn, type WechatApiStandIn } from '../support/wechat.ts';

const APP = { appId: 'wx5823bf96d3bd56c7', appSecret: 'cli-secret-never-printed' };
let api: WechatApiStandIn;
const dataDirs: string[] = [];

before(async () => {
  api = await startWechatApiStandIn(APP);
});

after(async () => {
  await api?.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

function cli(env: EnvOverrides, ...args: string[]) {
  const isolated = isolatedEnv({
    WECHAT_TOKEN: undefined,
    WECHAT_APP_ID: undefined,
    WECHAT_APP_SECRET: undefined,
    WECHAT_LANGUAGE: undefined,
    WECHAT_ENCODING_AES_KEY: undefined,
    WECHAT_API_BASE: undefined,
    ...env,
  });
  dataDirs.push(isolated.dataDir);
  return runCliInProcessAsync(isolated.env, ['channel', 'wechat', 'menu', ...args]);
}

test('the menu is printed as the platform’s menu API takes it, in the configured language', async () => {
  const zh = await cli({ WECHAT_TOKEN: 'cliToken1' });
  assert.equal(zh.status, 0, zh.stderr);
  assert.deepEqual(JSON.parse(zh.stdout), wechatMenu('zh'));
  assert.match(zh.stdout, /密钥与用量/);
  const en = await cli({ WECHAT_TOKEN: 'cliToken1', WECHAT_LANGUAGE: 'en' });
  assert.equal(en.status, 0, en.stderr);
  assert.deepEqual(JSON.parse(en.stdout), wechatMenu('en'));
});

test('without the WeChat settings, or without the app secret for --push, a usage error says what to set', async () => {
  const closed = await cli({});
  assert.equal(closed.status, 2);
  assert.match(closed.stderr, /set WECHAT_TOKEN/);
  const noSecret = await cli({ WECHAT_TOKEN: 'cliToken1', WECHAT_APP_ID: APP.appId }, '--push');
  assert.equal(noSecret.status, 2);
  assert.match(noSecret.stderr, /--push needs WECHAT_APP_ID and WECHAT_APP_SECRET/);
  const isolated = isolatedEnv({ WECHAT_TOKEN: 'cliToken1' });
  dataDirs.push(isolated.dataDir);
  const unknown = await runCliInProcessAsync(isolated.env, ['channel', 'wechat', 'send']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /Unknown subcommand "channel wechat send"/);
});

test('--push sends the menu with the app’s token and prints the platform’s answer', async () => {
  const pushed = await cli({ WECHAT_TOKEN: 'cliToken1', WECHAT_LANGUAGE: 'en', ...appEnv(APP.appSecret) }, '--push');
  assert.equal(pushed.status, 0, pushed.stderr);
  assert.deepEqual(JSON.parse(pushed.stdout), { errcode: 0, errmsg: 'ok' });
  const create = api.requests.find((r) => r.path === '/cgi-bin/menu/create');
  assert.deepEqual(create?.body, wechatMenu('en'));
  assert.ok(api.issued.includes(create?.query.get('access_token') ?? ''), 'sent with a token the platform issued');
});

test('a refused push prints the platform’s errcode and errmsg, never the secret', async () => {
  const refused = await cli({ WECHAT_TOKEN: 'cliToken1', ...appEnv('wrong-secret-not-printed') }, '--push');
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /errcode 40125: invalid appsecret/);
  assert.ok(!`${refused.stdout}${refused.stderr}`.includes('not-printed'));
});

function appEnv(secret: string): EnvOverrides {
  return { WECHAT_APP_ID: APP.appId, WECHAT_APP_SECRET: secret, WECHAT_API_BASE: api.baseUrl };
}
