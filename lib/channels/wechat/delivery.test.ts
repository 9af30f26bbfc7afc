/**
 * The POST handler in-process, on a real scratch database and the platform API stand-in, for what a
 * running server cannot be made to do on cue: a conversation that is late or fails. The conversation
 * is held behind a gate the test opens, so nothing here depends on how fast the machine is.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scratchPortal } from '../../../test/support/portal-db.ts';
import {
  signedDelivery,
  startWechatApiStandIn,
  textMessage,
  type WechatAccount,
} from '../../../test/support/wechat.ts';
import { answerDelivery } from './delivery.ts';
import type { WechatSettings } from './settings.ts';
import { cdata, parseWechatXml } from './xml.ts';

const ACCOUNT: WechatAccount = { token: 'QDG6eK' };
const APP = { appId: 'wx5823bf96d3bd56c7', appSecret: 'app-secret' };

function post(delivery: { query: string; body: string }): Request {
  return new Request(`http://localhost/api/channels/wechat?${delivery.query}`, { method: 'POST', body: delivery.body });
}

async function until<T>(check: () => T | undefined): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = check();
    if (value !== undefined) return value;
    await new Promise((tick) => setTimeout(tick, 10));
  }
  throw new Error('gave up waiting');
}

test('a reply later than the deadline: "success" now, then the reply as a customer-service message', async (t) => {
  const { db } = await scratchPortal(t);
  const api = await startWechatApiStandIn(APP);
  t.after(api.close);
  const settings: WechatSettings = { token: ACCOUNT.token, api: { ...APP, apiBase: api.baseUrl } };
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const slowConverse = async () => {
    await gate;
    return '这是一条迟到的回复。';
  };
  const message = textMessage('oLate', '密钥', { msgId: '9001' });

  const first = await answerDelivery(post(signedDelivery(ACCOUNT, message)), {
    db,
    settings,
    converse: slowConverse,
    replyDeadlineMs: 1,
  });
  assert.equal(await first.text(), 'success');
  assert.equal(api.requests.length, 0, 'nothing is sent before the reply exists');

  open();
  const sent = await until(() => api.requests.find((r) => r.path === '/cgi-bin/message/custom/send'));
  assert.deepEqual(sent.body, { touser: 'oLate', msgtype: 'text', text: { content: '这是一条迟到的回复。' } });

  // Should the platform deliver the message again, it gets the stored reply passively, and no second message.
  const retry = await answerDelivery(post(signedDelivery(ACCOUNT, message)), { db, settings, converse: slowConverse });
  const reply = parseWechatXml(await retry.text());
  assert.equal(reply.Content, '这是一条迟到的回复。');
  assert.equal(api.requests.filter((r) => r.path === '/cgi-bin/message/custom/send').length, 1);
});

test('a conversation that fails: "success" without a stack trace, and the retry is answered', async (t) => {
  const { db } = await scratchPortal(t);
  const settings: WechatSettings = { token: ACCOUNT.token };
  const message = textMessage('oRetry', 'hello', { msgId: '9002' });
  let calls = 0;
  const flaky = async () => {
    calls += 1;
    if (calls === 1) throw new Error('database went away at /srv/secret/path');
    return 'Here is your answer.';
  };
  const failed = await answerDelivery(post(signedDelivery(ACCOUNT, message)), { db, settings, converse: flaky });
  assert.equal(failed.status, 200);
  assert.equal(await failed.text(), 'success');
  const retried = await answerDelivery(post(signedDelivery(ACCOUNT, message)), { db, settings, converse: flaky });
  assert.equal(parseWechatXml(await retried.text()).Content, 'Here is your answer.');
  assert.equal(calls, 2);
});

test('without safe mode set up: a safe-mode delivery is not acted on, a compatibility-mode one is read plain', async (t) => {
  const { db } = await scratchPortal(t);
  const settings: WechatSettings = { token: ACCOUNT.token };
  const safeAccount: WechatAccount = {
    token: ACCOUNT.token,
    crypto: { encodingAesKey: 'jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C', appId: APP.appId },
  };
  let calls = 0;
  const converse = async () => `reply ${++calls}`;
  const safeOnly = signedDelivery(safeAccount, textMessage('oSafe', 'hello', { msgId: '9003' }));
  const ignored = await answerDelivery(post(safeOnly), { db, settings, converse });
  assert.equal(await ignored.text(), 'success');
  assert.equal(calls, 0);

  // Compatibility mode: the plain fields and the Encrypt element side by side.
  const compatible = signedDelivery(safeAccount, textMessage('oCompat', 'hello', { msgId: '9004' }));
  const { Encrypt } = parseWechatXml(compatible.body);
  const body = textMessage('oCompat', 'hello', { msgId: '9004' }).replace(
    '</xml>',
    `<Encrypt>${cdata(Encrypt)}</Encrypt></xml>`,
  );
  const answered = await answerDelivery(post({ query: compatible.query, body }), { db, settings, converse });
  const reply = parseWechatXml(await answered.text());
  assert.equal(reply.ToUserName, 'oCompat');
  assert.equal(reply.Content, 'reply 1');
});
