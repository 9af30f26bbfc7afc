/**
 * The messaging apps are doors to the portal's own keys, usage and upgrade queue. On one
 * production server with both doors open (their platforms played by local stand-ins): after real /mcp
 * calls, "my key and usage" in WeChat and /usage in Telegram give the numbers `key show --json` and the
 * portal give for the same key; and a Pro request filed in WeChat, approved by staff in the portal's
 * queue, is announced to the requester's followers on both apps.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseWechatXml } from '../../lib/channels/wechat/xml.ts';
import { createDb, type Db } from '../../lib/db/client.ts';
import { formatCalls, formatCount } from '../../lib/portal/format.ts';
import type { KeyReport } from '../../lib/usage/key-report.ts';
import { bearer, postMcp, toolCall } from '../support/mcp-client.ts';
import { startTelegramStandIn, type TelegramStandIn } from '../support/telegram-stand-in.ts';
import { privateText } from '../support/telegram-updates.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { callServerAction, formOf, serverActionIds, signInWithForm, webRequest } from '../support/web-client.ts';
import {
  eventMessage,
  signedDelivery,
  startWechatApiStandIn,
  textMessage,
  type WechatAccount,
  type WechatApiStandIn,
} from '../support/wechat.ts';

const DEV = 'doors@example.test';
const PASSWORD = 'correct horse battery';
const ACCOUNT: WechatAccount = { token: 'doorsToken42' };
const APP = { appId: 'wx0123456789abcdef', appSecret: 'doors-app-secret' };
const TELEGRAM_SECRET = 'doors_webhook_secret';
const PUBLIC_URL = 'https://chem.example.test';
const OPEN_ID = 'oDoorsFollower0000000000001';
const TELEGRAM_USER = 9001;

let wechatApi: WechatApiStandIn;
let telegram: TelegramStandIn;
let server: TestServer;
let db: Db;

before(async () => {
  wechatApi = await startWechatApiStandIn(APP);
  telegram = await startTelegramStandIn();
  server = await startTestServer({
    WECHAT_TOKEN: ACCOUNT.token,
    WECHAT_APP_ID: APP.appId,
    WECHAT_APP_SECRET: APP.appSecret,
    WECHAT_API_BASE: wechatApi.baseUrl,
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    PUBLIC_URL,
  });
  db = createDb(server.env.DATABASE_URL);
  server.cliOk('user', 'create', '--email', DEV, '--password', PASSWORD);
});

after(async () => {
  await db?.$disconnect();
  await server?.stop();
  await telegram?.close();
  await wechatApi?.close();
});

/** What the account replied to a WeChat message or event, as the platform reads the passive reply. */
async function wechat(xml: string): Promise<string> {
  const { query, body } = signedDelivery(ACCOUNT, xml);
  const answer = await fetch(`${server.baseUrl}/api/channels/wechat?${query}`, { method: 'POST', body });
  assert.equal(answer.status, 200);
  return parseWechatXml(await answer.text()).Content ?? '';
}

const wechatText = (text: string) => wechat(textMessage(OPEN_ID, text));

/** What the bot sent the user in answer to `text` (the newest message the stand-in got for them). */
async function telegramSays(text: string): Promise<string> {
  const before = telegram.calls('sendMessage').length;
  const answer = await fetch(`${server.baseUrl}/api/channels/telegram`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': TELEGRAM_SECRET },
    body: JSON.stringify(privateText(TELEGRAM_USER, text)),
  });
  assert.equal(answer.status, 200, await answer.text());
  const sent = telegram.calls('sendMessage').slice(before);
  assert.equal(sent.length, 1);
  return String(sent[0].params.text);
}

/** A fresh bind code for the developer, as an operator gets one (the code is the last line). */
const bindCode = () => server.cliOk('user', 'bind-code', '--email', DEV).trim().split('\n').at(-1)!;

async function reportWhenUsed(id: string, used: number): Promise<KeyReport> {
  for (let tries = 0; ; tries++) {
    const report: KeyReport = server.cliJson('key', 'show', id);
    if (report.usedToday >= used || tries === 40) return report;
    await new Promise((done) => setTimeout(done, 250));
  }
}

test('WeChat, Telegram, the CLI and the portal give the same numbers for one key after real calls', async () => {
  const key = server.cliJson('key', 'create', '--owner', DEV, '--name', 'lab agent', '--tier', 'pro');
  for (const compound of ['water', 'ethanol', 'no such compound at all'])
    await postMcp(server.mcpUrl, toolCall('service_query_compound', { compound_name: compound }), bearer(key.key));
  const report = await reportWhenUsed(key.id, 3);
  assert.equal(report.usedToday, 3);
  const [queried] = report.today;
  assert.deepEqual([queried.tool, queried.successes, queried.failures], ['service_query_compound', 2, 1]);

  assert.match(await wechatText(bindCode()), /已绑定账户 doors@example\.test/);
  const zh = await wechat(eventMessage(OPEN_ID, 'CLICK', 'MY_KEY_USAGE'));
  assert.ok(
    zh.includes(
      `今日已用 ${report.usedToday} / ${formatCount(report.dailyQuota)} 次，剩余 ${formatCount(report.remainingToday)} 次`,
    ),
    zh,
  );
  assert.ok(zh.includes(`${report.display}「lab agent」 专业版`), zh);
  assert.ok(zh.includes('service_query_compound 2 / 1'), zh);
  const listed = [...zh.matchAll(/^\d\d-\d\d \d\d:\d\d:\d\d (\S+) (✓|✗ \S+) \d+ ms$/gm)];
  assert.deepEqual(
    listed.map((m) => [m[1], m[2] === '✓' ? 'success' : m[2].slice(2)]),
    report.lastCalls.map((c) => [c.tool, c.outcome === 'success' ? 'success' : c.errorCode]),
  );
  assert.ok(zh.endsWith(`${PUBLIC_URL}/keys/${key.id}`), zh);

  assert.match(await telegramSays(`/bind ${bindCode()}`), /Bound to the account doors@example\.test/);
  const en = await telegramSays('/usage');
  assert.ok(en.includes('service_query_compound 2 / 1'), en);
  const keys = await telegramSays('/key');
  assert.ok(
    keys.includes(
      `Today ${report.usedToday} of ${formatCount(report.dailyQuota)} calls used, ${formatCount(report.remainingToday)} left`,
    ),
    keys,
  );

  const { jar } = await signInWithForm(server.baseUrl, DEV, PASSWORD);
  const live = await webRequest(`${server.baseUrl}/api/portal/keys/${key.id}/usage`, {
    headers: { cookie: jar.header() },
  });
  const portal: KeyReport = JSON.parse(live.text);
  assert.deepEqual(
    [
      portal.usedToday,
      portal.remainingToday,
      portal.dailyQuota,
      portal.today,
      portal.lastCalls.map((c) => c.requestId),
    ],
    [
      report.usedToday,
      report.remainingToday,
      report.dailyQuota,
      report.today,
      report.lastCalls.map((c) => c.requestId),
    ],
  );
  const page = await webRequest(`${server.baseUrl}/keys/${key.id}`, { headers: { cookie: jar.header() } });
  assert.ok(page.text.includes(formatCalls(report.remainingToday)), 'the key page shows the same calls left');
});

test('Pro asked for in WeChat is in the staff queue marked WeChat; approving it tells the followers on both apps', async () => {
  const free = server.cliJson('key', 'create', '--owner', DEV, '--name', 'screening');
  const filed = await wechatText('专业版 5000 高通量筛选中的物性查询');
  assert.match(filed, /已提交 cf_.* 的专业版申请/, filed);
  const request = await db.upgradeRequest.findFirstOrThrow({ where: { keyId: free.id } });
  assert.deepEqual([request.channel, request.expectedDailyCalls, request.status], ['wechat', 5000, 'pending']);

  const admin = await signInWithForm(server.baseUrl, server.adminEmail, server.adminPassword!);
  const queue = await webRequest(`${server.baseUrl}/support/upgrades`, { headers: { cookie: admin.jar.header() } });
  assert.ok(/via (?:<!-- -->)?WeChat/.test(queue.text), 'the staff queue says the request came via WeChat');
  const approve = serverActionIds().get('app/support/upgrades/actions.ts#approveAction');
  assert.ok(approve, 'the approve action is in the build');
  const answer = await callServerAction(server.baseUrl, {
    page: '/support/upgrades',
    actionId: approve,
    args: [null, formOf({ requestId: request.id, note: 'Enjoy the headroom.' })],
    jar: admin.jar,
  });
  assert.equal(answer.status, 200, answer.text);

  const told = async () => {
    for (let tries = 0; tries < 40; tries++) {
      const wechatSent = wechatApi.requests.filter((r) => r.path === '/cgi-bin/message/custom/send');
      const telegramSent = telegram
        .calls('sendMessage')
        .filter((c) => String(c.params.text).startsWith('Your Pro request was approved'));
      if (wechatSent.length && telegramSent.length) return { wechatSent, telegramSent };
      await new Promise((done) => setTimeout(done, 250));
    }
    assert.fail('the decision reached both apps');
  };
  const { wechatSent, telegramSent } = await told();
  const body = wechatSent[0].body as { touser: string; text: { content: string } };
  assert.equal(body.touser, OPEN_ID);
  assert.match(
    body.text.content,
    /你的专业版申请已批准：cf_.* 现在是专业版，每天可调用 100,000 次。客服留言：Enjoy the headroom\./,
  );
  assert.equal(String(telegramSent[0].params.chat_id), String(TELEGRAM_USER));
  assert.match(
    await wechat(eventMessage(OPEN_ID, 'CLICK', 'UPGRADE_PRO')),
    /专业版申请已于 .* 批准：Enjoy the headroom\./,
  );

  // A decline is announced the same way, with the reason staff gave.
  const other = server.cliJson('key', 'create', '--owner', DEV, '--name', 'second screening');
  assert.match(await wechatText('专业版 3000 溶剂筛选'), /已提交 cf_.* 的专业版申请/);
  const second = await db.upgradeRequest.findFirstOrThrow({ where: { keyId: other.id } });
  const decline = serverActionIds().get('app/support/upgrades/actions.ts#declineAction');
  assert.ok(decline, 'the decline action is in the build');
  const declined = await callServerAction(server.baseUrl, {
    page: '/support/upgrades',
    actionId: decline,
    args: [null, formOf({ requestId: second.id, note: 'One Pro key per team.' })],
    jar: admin.jar,
  });
  assert.equal(declined.status, 200, declined.text);
  for (let tries = 0; ; tries++) {
    const wechatNotice = wechatApi.requests
      .map((r) => (r.body as { text?: { content?: string } } | undefined)?.text?.content ?? '')
      .find((content) => content.includes('未获批准'));
    const telegramNotice = telegram
      .calls('sendMessage')
      .map((c) => String(c.params.text))
      .find((text) => text.startsWith('Your Pro request for'));
    if (wechatNotice && telegramNotice) {
      assert.match(wechatNotice, /你的专业版申请（cf_.*）未获批准。客服说明：One Pro key per team\./);
      assert.match(telegramNotice, /^Your Pro request for cf_.* was declined\. Support says: One Pro key per team\.$/);
      break;
    }
    assert.ok(tries < 40, 'the decline reached both apps');
    await new Promise((done) => setTimeout(done, 250));
  }
});
