/**
 * The account's replies on a real SQLite database, whichever door: binding with a code (once, not
 * expired, never moving a follower silently), an account and a key made in the chat, "my key and usage"
 * with the same numbers as keyReport and within the door's length limit, "buy Pro" filing the portal's
 * own upgrade request, and what typed text is read as.
 */
process.env.KEY_HASH_SECRET = 'x'.repeat(64);

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scratchPortal } from '../../test/support/portal-db.ts';
import { KEY_PATTERN } from '../keys/format.ts';
import { quotaDayCalculator } from '../limits/quota-day.ts';
import { formatCount } from '../portal/format.ts';
import { keyReport } from '../usage/key-report.ts';
import { createBindCode, redeemBindCode } from './bindings.ts';
import { converse } from './conversation.ts';
import { readText } from './read-text.ts';
import {
  type ConversationContext,
  type Follower,
  type Intent,
  TELEGRAM_REPLY_LIMIT,
  WECHAT_REPLY_LIMIT,
} from './types.ts';
import { fitBlocks, sparkline } from './usage-text.ts';

const PORTAL = 'https://chem.example.test';
const wechat = (id: string): Follower => ({ channel: 'wechat', id });
const usageIntent: Intent = { kind: 'key_usage', part: 'all' };

function contextFor(db: ConversationContext['db'], language: 'zh' | 'en' = 'zh'): ConversationContext {
  return { db, language, limit: WECHAT_REPLY_LIMIT, portalUrl: PORTAL };
}

/** Today's usage as the recorder writes it: per-tool aggregates and call-log rows. */
async function recordCalls(
  db: ConversationContext['db'],
  key: { id: string; lineageId: string },
  calls: { tool: string; outcome: 'success' | 'failure'; errorCode?: string }[],
) {
  const day = quotaDayCalculator('UTC')(Date.now()).day;
  for (const [i, call] of calls.entries()) {
    const success = call.outcome === 'success' ? 1 : 0;
    await db.dailyUsage.upsert({
      where: { keyId_day_tool: { keyId: key.id, day, tool: call.tool } },
      create: { keyId: key.id, day, tool: call.tool, successes: success, failures: 1 - success },
      update: { successes: { increment: success }, failures: { increment: 1 - success } },
    });
    await db.callLog.create({
      data: {
        requestId: `${key.id}-${i}`,
        keyId: key.id,
        tool: call.tool,
        outcome: call.outcome,
        errorCode: call.errorCode ?? null,
        latencyMs: 3.4,
        createdAt: new Date(Date.now() - (calls.length - i) * 1000),
      },
    });
  }
}

test('a follower who is not bound is told how to bind or to make an account, in Chinese by default and in English', async (t) => {
  const { db } = await scratchPortal(t);
  const zh = await converse(contextFor(db), wechat('o-stranger'), usageIntent);
  assert.match(zh, /绑定码/);
  assert.match(zh, /新建/);
  assert.ok(zh.includes(`${PORTAL}/account`));
  const en = await converse(contextFor(db, 'en'), wechat('o-stranger'), usageIntent);
  assert.match(en, /bind code/);
  assert.match(en, /"new key"/);
});

test('a bind code binds once, within its time, and never moves a follower bound elsewhere; both are audited with the channel', async (t) => {
  const { db, ada, bob } = await scratchPortal(t);
  const { code } = await createBindCode(db, ada.id);
  const typed = code.toLowerCase().replace('-', ' ');
  assert.match(
    await converse(contextFor(db), wechat('o-ada'), { kind: 'text', text: typed }),
    /已绑定账户 ada@example\.test/,
  );
  assert.match(await converse(contextFor(db), wechat('o-mallory'), { kind: 'text', text: code }), /绑定码无效或已过期/);

  const bobs = await createBindCode(db, bob.id);
  assert.match(await converse(contextFor(db), wechat('o-ada'), { kind: 'bind', code: bobs.code }), /另一个账户/);
  const stale = await createBindCode(db, bob.id, Date.now() - 11 * 60_000);
  assert.equal((await redeemBindCode(db, wechat('o-bob'), stale.code)).kind, 'no_such_code');
  assert.equal((await redeemBindCode(db, wechat('o-bob'), bobs.code)).kind, 'no_such_code', 'a newer code replaced it');

  assert.match(await converse(contextFor(db), wechat('o-ada'), { kind: 'text', text: '解绑' }), /已解除绑定/);
  assert.match(await converse(contextFor(db), wechat('o-ada'), { kind: 'unbind' }), /没有绑定/);
  const events = await db.auditEvent.findMany({ where: { targetUserId: ada.id }, orderBy: { createdAt: 'asc' } });
  assert.deepEqual(
    events.map((e) => [e.action, e.actorLabel]),
    [
      ['channel.bind', 'developer:ada@example.test via WeChat'],
      ['channel.unbind', 'developer:ada@example.test via WeChat'],
    ],
  );
  assert.match(events[0].after ?? '', /"follower":"o-ada"/);
});

test('wrong codes from one follower are limited, so guessing codes is pointless', async (t) => {
  const { db, ada } = await scratchPortal(t);
  const { code } = await createBindCode(db, ada.id);
  for (let i = 0; i < 5; i++)
    assert.equal((await redeemBindCode(db, wechat('o-guesser'), 'AAAA-AAAA')).kind, 'no_such_code');
  assert.equal((await redeemBindCode(db, wechat('o-guesser'), code)).kind, 'too_many_tries');
  assert.equal((await redeemBindCode(db, wechat('o-ada'), code)).kind, 'bound', 'another follower is not held back');
});

test('"new key" makes an account and a free key for a follower with none; the secret is in that reply, with the warning', async (t) => {
  const { db } = await scratchPortal(t);
  const follower: Follower = { channel: 'telegram', id: '4242' };
  const context = { ...contextFor(db, 'en'), limit: TELEGRAM_REPLY_LIMIT };
  const [first, second] = await Promise.all([
    converse(context, follower, { kind: 'new_key' }),
    converse(context, follower, { kind: 'text', text: 'new key' }),
  ]);
  const binding = await db.channelBinding.findUniqueOrThrow({
    where: { channel_externalId: { channel: 'telegram', externalId: '4242' } },
    include: { user: { include: { apiKeys: true } } },
  });
  assert.equal(binding.user.apiKeys.length, 2, 'two taps: one account, a key for each');
  assert.equal(binding.user.passwordHash, null);
  assert.equal([first, second].filter((r) => r.startsWith('An account was created')).length, 1);
  for (const reply of [first, second]) {
    assert.equal(reply.match(KEY_PATTERN)?.length, 1);
    assert.match(reply, /only time the secret is shown/);
    assert.ok(reply.includes(`${PORTAL}/mcp`));
  }
  const usage = await converse(context, follower, { kind: 'key_usage', part: 'keys' });
  assert.match(usage, /Your active keys \(2\)/);
  assert.ok(!usage.includes(PORTAL), 'an account made in the chat cannot sign in to the portal: no links to it');
  const audit = await db.auditEvent.findMany({ where: { actorId: binding.userId } });
  assert.deepEqual(audit.map((e) => e.action).sort(), ['channel.bind', 'key.issue', 'key.issue', 'user.create']);
  assert.ok(audit.every((e) => e.actorLabel.endsWith('via Telegram')));
  assert.doesNotMatch(JSON.stringify(audit), KEY_PATTERN);
});

test('"my key and usage" shows what keyReport shows: tier, quota used and left with the reset, expiry, today by tool, the trend, the last calls', async (t) => {
  const { db, ada, issue } = await scratchPortal(t);
  const { key } = await issue(ada, 'lab agent');
  await recordCalls(db, key, [
    { tool: 'service_query_compound', outcome: 'success' },
    { tool: 'service_query_compound', outcome: 'success' },
    { tool: 'service_query_compound', outcome: 'failure', errorCode: 'compound_not_found' },
    { tool: 'service_vapor_pressure', outcome: 'success' },
  ]);
  const { code } = await createBindCode(db, ada.id);
  await redeemBindCode(db, wechat('o-ada'), code);
  const reply = await converse(contextFor(db), wechat('o-ada'), usageIntent);
  const report = await keyReport(db, await db.apiKey.findUniqueOrThrow({ where: { id: key.id } }));

  assert.ok(reply.includes(`${report.display}「lab agent」 免费版`), reply);
  assert.ok(
    reply.includes(`今日已用 4 / ${formatCount(report.dailyQuota)} 次，剩余 ${formatCount(report.remainingToday)} 次`),
    reply,
  );
  assert.ok(reply.includes(`${report.quotaResetsAt.slice(5, 10)} ${report.quotaResetsAt.slice(11, 16)} UTC 重置`));
  assert.match(reply, /每秒最多 1 次；永不过期/);
  assert.match(reply, /service_query_compound 2 \/ 1\nservice_vapor_pressure 1 \/ 0/);
  assert.match(reply, /近 7 天：······█ 共 4 次，最高 4/);
  assert.match(reply, /最近调用：\n(.*\n){3}.*service_query_compound ✓ 3 ms/);
  assert.match(reply, /service_query_compound ✗ compound_not_found/);
  assert.ok(reply.endsWith(`完整内容：${PORTAL}/keys/${key.id}`));

  const en = await converse(contextFor(db, 'en'), wechat('o-ada'), { kind: 'key_usage', part: 'keys' });
  assert.match(en, /Today 4 of 1,000 calls used, 996 left; resets/);
  assert.doesNotMatch(en, /Last calls/, '/key shows the keys, /usage the calls');
});

test('many keys with busy days still fit one WeChat message (2048 bytes), busiest key first, and end with the link to the rest', async (t) => {
  const { db, ada, issue } = await scratchPortal(t);
  for (let k = 0; k < 7; k++) {
    const { key } = await issue(ada, `agent ${k} with a rather long descriptive name for its machine`);
    const tools = [
      'service_query_compound',
      'service_vapor_pressure',
      'service_liquid_density',
      'service_heat_capacity',
    ];
    await recordCalls(
      db,
      key,
      Array.from({ length: 12 + k }, (_, i) => ({
        tool: tools[i % tools.length],
        outcome: i % 5 ? 'success' : 'failure',
      })),
    );
  }
  const { code } = await createBindCode(db, ada.id);
  await redeemBindCode(db, wechat('o-ada'), code);
  const reply = await converse(contextFor(db), wechat('o-ada'), usageIntent);
  assert.ok(Buffer.byteLength(reply) <= 2048, `${Buffer.byteLength(reply)} bytes`);
  assert.match(reply, /你的可用密钥（7 个）/);
  assert.match(reply, /agent 6/, 'the busiest key is shown');
  assert.match(reply, /另有 2 个密钥未列出。/);
  assert.ok(reply.endsWith(`完整内容：${PORTAL}/keys`));
});

test('"buy Pro" lists the tiers from the Tier table, then files the portal\'s upgrade request marked with the channel, once', async (t) => {
  const { db, ada, issue } = await scratchPortal(t);
  const { key } = await issue(ada);
  const { code } = await createBindCode(db, ada.id);
  await redeemBindCode(db, wechat('o-ada'), code);
  await db.tier.update({ where: { id: 'pro' }, data: { dailyQuota: 250_000 } });
  const overview = await converse(contextFor(db), wechat('o-ada'), { kind: 'upgrade', details: '' });
  assert.match(overview, /专业版：每天 250,000 次/);
  assert.match(overview, /回复：专业版 每日预计调用次数 用途/);
  assert.ok(overview.includes(`${PORTAL}/upgrade`));

  const filed = await converse(contextFor(db), wechat('o-ada'), {
    kind: 'text',
    text: '专业版 5,000 反应器设计中查询物性数据',
  });
  assert.match(filed, /已提交 .* 的专业版申请/);
  const request = await db.upgradeRequest.findFirstOrThrow({ where: { keyId: key.id } });
  assert.deepEqual(
    [request.channel, request.expectedDailyCalls, request.useCase, request.status],
    ['wechat', 5000, '反应器设计中查询物性数据', 'pending'],
  );
  assert.match(request.contact, /WeChat chat .*ada@example\.test/);
  assert.match(
    await converse(contextFor(db), wechat('o-ada'), { kind: 'upgrade', details: '5000 again' }),
    /正在等待客服处理/,
  );
  assert.equal(await db.upgradeRequest.count(), 1);
});

test('"buy Pro" with several free keys asks which one, and takes the key named by its last 4 characters', async (t) => {
  const { db, ada, issue } = await scratchPortal(t);
  await issue(ada, 'one');
  const { key: second } = await issue(ada, 'two');
  const { code } = await createBindCode(db, ada.id);
  await redeemBindCode(db, wechat('o-ada'), code);
  const context = contextFor(db, 'en');
  assert.match(
    await converse(context, wechat('o-ada'), { kind: 'upgrade', details: '5000 screening' }),
    /last 4 characters/,
  );
  const filed = await converse(context, wechat('o-ada'), { kind: 'upgrade', details: `${second.end} 5000 screening` });
  assert.match(filed, /Pro requested for cf_/);
  assert.equal((await db.upgradeRequest.findFirstOrThrow()).keyId, second.id);
  assert.match(
    await converse(context, wechat('o-ada'), { kind: 'upgrade', details: `${second.end} 0 screening` }),
    /waits for support/,
  );
});

test('a secret typed into the chat is never echoed: the follower is told to disable it', async (t) => {
  const { db, ada, issue } = await scratchPortal(t);
  const { secret } = await issue(ada);
  const reply = await converse(contextFor(db), wechat('o-x'), { kind: 'text', text: `my key is ${secret}` });
  assert.match(reply, /不要在聊天中发送密钥/);
  assert.ok(!reply.includes(secret));
});

test('typed text: commands in Chinese and English, a bind code alone, anything else is help', () => {
  assert.deepEqual(readText('ABCD-2345'), { kind: 'bind', code: 'ABCD-2345' });
  assert.deepEqual(readText('/bind abcd2345'), { kind: 'bind', code: 'abcd2345' });
  assert.deepEqual(readText('绑定 ABCD2345'), { kind: 'bind', code: 'ABCD2345' });
  assert.deepEqual(readText('Pro 5000 docking'), { kind: 'upgrade', details: '5000 docking' });
  assert.deepEqual(readText('升级'), { kind: 'upgrade', details: '' });
  assert.deepEqual(readText(' 用量 '), { kind: 'key_usage', part: 'all' });
  assert.deepEqual(readText('UNBIND'), { kind: 'unbind' });
  assert.deepEqual(readText('新建'), { kind: 'new_key' });
  assert.deepEqual(readText(''), { kind: 'help', understood: true });
  assert.deepEqual(readText('bindings?'), { kind: 'help', understood: false });
  assert.deepEqual(readText('hello'), { kind: 'help', understood: false });
});

test('the trend chart and the fitting of blocks under a limit', () => {
  assert.equal(sparkline([0, 1, 4, 8, 0, 2, 8]), '·▁▄█·▂█');
  assert.equal(sparkline([0, 0]), '··');
  const limit = { max: 20, measure: (s: string) => s.length };
  assert.equal(fitBlocks(['aaaa', 'bbbb', 'cccc'], 'link', limit), 'aaaa\n\nbbbb\n\nlink');
  assert.equal(fitBlocks(['a'.repeat(30)], 'link', limit), 'link');
});

test('each door is named and instructed in its own words: WeChat has words and a menu, Telegram has commands', async (t) => {
  const { db } = await scratchPortal(t);
  const telegram: Follower = { channel: 'telegram', id: '77' };
  const zh = await converse(contextFor(db), telegram, usageIntent);
  assert.match(zh, /此 Telegram 账号尚未绑定账户/);
  assert.match(zh, /\/bind 绑定码/);
  assert.match(zh, /发送 \/newkey /);
  assert.doesNotMatch(zh, /微信|「新建」/);
  const help = await converse({ ...contextFor(db, 'en'), limit: TELEGRAM_REPLY_LIMIT }, telegram, {
    kind: 'text',
    text: 'hello',
  });
  assert.match(help, /^That message was not understood\.\n\/key shows your keys/);
  assert.doesNotMatch(help, /Menu/);
  assert.match(
    await converse(contextFor(db, 'en'), wechat('o-1'), { kind: 'text', text: '?' }),
    /^Menu "My key & usage"/,
  );
});

test('what a person wrote is shown as written, even where it looks like a door word', async (t) => {
  const { db, ada, issue } = await scratchPortal(t);
  await issue(ada, '{pro} {help}');
  const { code } = await createBindCode(db, ada.id);
  await redeemBindCode(db, wechat('o-ada'), code);
  assert.match(await converse(contextFor(db), wechat('o-ada'), usageIntent), /「\{pro\} \{help\}」 免费版/);
});
