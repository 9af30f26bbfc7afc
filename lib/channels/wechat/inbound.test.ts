import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readInbound } from './inbound.ts';

const base = { ToUserName: 'gh_account', FromUserName: 'oFollower', CreateTime: '1714036504' };
const follower = { channel: 'wechat', id: 'oFollower' };

test('a text message is a text intent keyed by its MsgId', () => {
  assert.deepEqual(readInbound({ ...base, MsgType: 'text', Content: 'ABCD-2345', MsgId: '42' }), {
    kind: 'answer',
    deliveryId: 'msg:42',
    follower,
    account: 'gh_account',
    intent: { kind: 'text', text: 'ABCD-2345' },
  });
});

test('other message types become empty text, which the conversation answers with help', () => {
  for (const type of ['image', 'voice', 'video', 'location', 'link']) {
    const inbound = readInbound({ ...base, MsgType: type, MsgId: '43' });
    assert.equal(inbound.kind, 'answer');
    assert.deepEqual(inbound.kind === 'answer' && inbound.intent, { kind: 'text', text: '' });
  }
});

test('events: subscribe welcomes, menu clicks map to their intents, unsubscribe is silent', () => {
  const event = (Event: string, EventKey?: string) =>
    readInbound({ ...base, MsgType: 'event', Event, ...(EventKey === undefined ? {} : { EventKey }) });
  const intentOf = (inbound: ReturnType<typeof readInbound>) => (inbound.kind === 'answer' ? inbound.intent : inbound);
  assert.deepEqual(intentOf(event('subscribe')), { kind: 'welcome' });
  assert.deepEqual(intentOf(event('subscribe', 'qrscene_123')), { kind: 'welcome' });
  assert.deepEqual(intentOf(event('CLICK', 'MY_KEY_USAGE')), { kind: 'key_usage', part: 'all' });
  assert.deepEqual(intentOf(event('CLICK', 'UPGRADE_PRO')), { kind: 'upgrade', details: '' });
  assert.deepEqual(intentOf(event('CLICK', 'CONTACT')), { kind: 'contact' });
  assert.deepEqual(event('unsubscribe'), {
    kind: 'silent',
    deliveryId: 'event:oFollower:1714036504:unsubscribe:',
    what: 'unsubscribe',
  });
  const click = event('CLICK', 'CONTACT');
  assert.equal(click.kind === 'answer' && click.deliveryId, 'event:oFollower:1714036504:CLICK:CONTACT');
});

test('unknown types, events and keys, and missing fields, are ignored with a reason', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ ...base, MsgType: 'event', Event: 'CLICK', EventKey: 'NOPE' }, /unknown menu key "NOPE"/],
    [{ ...base, MsgType: 'event', Event: 'VIEW', EventKey: 'https://example.test' }, /unhandled event "VIEW"/],
    [{ ...base, MsgType: 'event' }, /without Event/],
    [{ ...base, MsgType: 'miniprogrampage', MsgId: '1' }, /unknown MsgType "miniprogrampage"/],
    [{ ...base, MsgType: 'text', Content: 'hi' }, /without MsgId/],
    [{ ToUserName: 'gh_account', MsgType: 'text', MsgId: '1' }, /missing FromUserName, CreateTime/],
  ];
  for (const [fields, reason] of cases) {
    const inbound = readInbound(fields);
    assert.equal(inbound.kind, 'ignored', JSON.stringify(fields));
    assert.match(inbound.kind === 'ignored' ? inbound.reason : '', reason);
  }
});
