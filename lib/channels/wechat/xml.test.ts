import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cdata, encryptedReplyXml, parseWechatXml, textReplyXml, WechatXmlError } from './xml.ts';

const TEXT_MESSAGE =
  '<xml><ToUserName><![CDATA[gh_account]]></ToUserName><FromUserName><![CDATA[oFollower]]></FromUserName>' +
  '<CreateTime>1714036504</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[ 0042 ]]></Content>' +
  '<MsgId>23456789012345678901</MsgId></xml>';

test('a message’s fields are read as strings: wide MsgIds and digit-only text stay exact', () => {
  const fields = parseWechatXml(`<?xml version="1.0" encoding="UTF-8"?>\n${TEXT_MESSAGE}`);
  assert.deepEqual(
    { ...fields },
    {
      ToUserName: 'gh_account',
      FromUserName: 'oFollower',
      CreateTime: '1714036504',
      MsgType: 'text',
      Content: ' 0042 ',
      MsgId: '23456789012345678901',
    },
  );
});

test('nested elements are left out and an empty element is an empty string', () => {
  const fields = parseWechatXml(
    '<xml><MsgType><![CDATA[event]]></MsgType><EventKey></EventKey><ScanCodeInfo><ScanType>qrcode</ScanType></ScanCodeInfo></xml>',
  );
  assert.deepEqual({ ...fields }, { MsgType: 'event', EventKey: '' });
});

const HOSTILE: Record<string, string> = {
  'billion laughs': `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><xml><Content>&lol3;</Content></xml>`,
  'external entity': `<!DOCTYPE xml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><xml><Content>&xxe;</Content></xml>`,
  'doctype in lower case': `<!doctype xml><xml><Content>a</Content></xml>`,
  'entity declaration alone': `<xml><!ENTITY a "b"><Content>&a;</Content></xml>`,
  truncated: TEXT_MESSAGE.slice(0, -10),
  'mismatched tags': '<xml><Content>a</MsgType></xml>',
  'not XML': 'hello',
  empty: '',
  JSON: '{"MsgType":"text"}',
  'two roots': '<xml><Content>a</Content></xml><xml><Content>b</Content></xml>',
  'another root': '<message><Content>a</Content></message>',
  'text root': '<xml>just text</xml>',
  'prototype keys': '<xml><__proto__><isAdmin>1</isAdmin></__proto__><constructor>x</constructor></xml>',
};

for (const [name, body] of Object.entries(HOSTILE)) {
  test(`refused, never expanded: ${name}`, () => {
    assert.throws(() => parseWechatXml(body), WechatXmlError);
  });
}

test('entity references are never expanded, even the predefined ones', () => {
  const fields = parseWechatXml('<xml><Content>a &amp; b &#60; &lt;</Content></xml>');
  assert.equal(fields.Content, 'a &amp; b &#60; &lt;');
});

test('a reply survives text that tries to close its CDATA section', () => {
  const content = 'x]]><MsgType>news</MsgType><![CDATA[ and ]]> twice';
  const reply = textReplyXml({ toUser: 'oFollower', fromUser: 'gh_account', createTime: 1714036504, content });
  const fields = parseWechatXml(reply);
  assert.equal(fields.Content, content);
  assert.equal(fields.MsgType, 'text');
  assert.equal(fields.ToUserName, 'oFollower');
  assert.equal(fields.FromUserName, 'gh_account');
  assert.equal(fields.CreateTime, '1714036504');
  assert.equal(cdata('plain'), '<![CDATA[plain]]>');
  assert.equal(parseWechatXml(`<xml><Content>${cdata('a\u0000b\u001bc\td')}</Content></xml>`).Content, 'abc\td');
});

test('the encrypted reply envelope carries its four fields', () => {
  const fields = parseWechatXml(
    encryptedReplyXml({ encrypt: 'YWJj', signature: 'ab12', timestamp: '1714036504', nonce: '42' }),
  );
  assert.deepEqual({ ...fields }, { Encrypt: 'YWJj', MsgSignature: 'ab12', TimeStamp: '1714036504', Nonce: '42' });
});
