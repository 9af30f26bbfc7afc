/** The platform API client against a local stand-in that speaks the documented API (test/support/wechat.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freePort } from '../../../test/support/test-server.ts';
import { startWechatApiStandIn, type WechatApiStandIn } from '../../../test/support/wechat.ts';
import { pushMenu, sendText, WechatApiError } from './api.ts';
import { wechatMenu } from './menu.ts';
import type { WechatApiSettings } from './settings.ts';

const APP = { appId: 'wx5823bf96d3bd56c7', appSecret: 'app-secret-never-shown' };

async function standIn(t: {
  after: (fn: () => Promise<void>) => void;
}): Promise<[WechatApiStandIn, WechatApiSettings]> {
  const server = await startWechatApiStandIn(APP);
  t.after(server.close);
  return [server, { ...APP, apiBase: server.baseUrl }];
}

const paths = (server: WechatApiStandIn) => server.requests.map((r) => `${r.method} ${r.path}`);

test('one access token serves the menu and a customer-service message; both arrive as documented', async (t) => {
  const [server, settings] = await standIn(t);
  const menu = wechatMenu('zh');
  assert.deepEqual(await pushMenu(menu, settings), { errcode: 0, errmsg: 'ok' });
  await sendText('oFollower', '您的升级申请已批准。', settings);
  assert.deepEqual(paths(server), [
    'GET /cgi-bin/token',
    'POST /cgi-bin/menu/create',
    'POST /cgi-bin/message/custom/send',
  ]);
  const [token, create, send] = server.requests;
  assert.equal(token.query.get('grant_type'), 'client_credential');
  assert.equal(token.query.get('appid'), APP.appId);
  assert.equal(token.query.get('secret'), APP.appSecret);
  assert.equal(create.query.get('access_token'), server.issued[0]);
  assert.deepEqual(create.body, menu);
  assert.equal(send.query.get('access_token'), server.issued[0]);
  assert.deepEqual(send.body, { touser: 'oFollower', msgtype: 'text', text: { content: '您的升级申请已批准。' } });
});

for (const errcode of [40001, 42001] as const) {
  test(`a token the platform calls ${errcode === 40001 ? 'invalid' : 'expired'} (${errcode}) is replaced once and the call retried`, async (t) => {
    const [server, settings] = await standIn(t);
    await sendText('oFollower', 'first', settings);
    server.revokeTokens(errcode);
    await sendText('oFollower', 'second', settings);
    assert.deepEqual(paths(server), [
      'GET /cgi-bin/token',
      'POST /cgi-bin/message/custom/send',
      'POST /cgi-bin/message/custom/send',
      'GET /cgi-bin/token',
      'POST /cgi-bin/message/custom/send',
    ]);
    assert.equal(server.issued.length, 2);
    assert.equal(server.requests.at(-1)?.query.get('access_token'), server.issued[1]);
    // The new token is cached in turn.
    await sendText('oFollower', 'third', settings);
    assert.equal(server.issued.length, 2);
  });
}

test('any other errcode is an error naming errcode and errmsg, not retried', async (t) => {
  const [server, settings] = await standIn(t);
  const menu = { button: [{ type: 'click' as const, name: '这个名字长过十六个字节', key: 'MY_KEY_USAGE' as const }] };
  await assert.rejects(pushMenu(menu, settings), (error) => {
    assert.ok(error instanceof WechatApiError);
    assert.equal(error.message, 'WeChat API /cgi-bin/menu/create answered errcode 40018: invalid button name size');
    assert.equal(error.errcode, 40018);
    return true;
  });
  assert.deepEqual(paths(server), ['GET /cgi-bin/token', 'POST /cgi-bin/menu/create']);
});

test('a wrong secret: the platform’s errcode in the error, the secret nowhere in it', async (t) => {
  const [server, settings] = await standIn(t);
  const wrong = { ...settings, appSecret: 'wrong-secret-do-not-print' };
  await assert.rejects(pushMenu(wechatMenu('en'), wrong), (error) => {
    assert.ok(error instanceof WechatApiError);
    assert.equal(error.message, 'WeChat API /cgi-bin/token answered errcode 40125: invalid appsecret');
    assert.ok(!String(error.stack).includes('do-not-print'));
    return true;
  });
  // A failed token fetch is not cached: the right secret works at once.
  assert.deepEqual(await pushMenu(wechatMenu('en'), settings), { errcode: 0, errmsg: 'ok' });
  assert.equal(server.issued.length, 1);
});

test('an unreachable platform is an error saying so', async () => {
  const port = await freePort();
  await assert.rejects(
    sendText('oFollower', 'hello', { ...APP, apiBase: `http://127.0.0.1:${port}` }),
    (error) =>
      error instanceof WechatApiError && /^WeChat API \/cgi-bin\/token unreachable: .*ECONNREFUSED/.test(error.message),
  );
});
