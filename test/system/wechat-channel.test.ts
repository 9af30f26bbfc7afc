/**
 * The WeChat Official Account endpoint on a real server, sent what the platform sends: signed GETs,
 * signed plain POSTs and (on a second server, in safe mode) encrypted ones, retries of one message,
 * stale and forged signatures, a reused nonce, and hostile bodies. Every reply is read back the way the
 * platform reads it, and no answer ever carries a stack trace.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { encryptMessage } from '../../lib/channels/wechat/crypto.ts';
import { wechatSignature } from '../../lib/channels/wechat/signature.ts';
import { cdata, parseWechatXml } from '../../lib/channels/wechat/xml.ts';
import { createDb, type Db } from '../../lib/db/client.ts';
import { SAMPLED_LINES_PER_WINDOW } from '../../lib/ops/log-sampler.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import {
  aesKeyOf,
  type DeliveryParts,
  eventMessage,
  freshNonce,
  newEncodingAesKey,
  nowSeconds,
  openEncryptedReply,
  signedDelivery,
  textMessage,
  verificationQuery,
  type WechatAccount,
} from '../support/wechat.ts';

const PATH = '/api/channels/wechat';
const ACCOUNT_ID = 'gh_account';
const PLAIN: WechatAccount = { token: 'plainToken42' };
const SAFE: WechatAccount = {
  token: 'safeToken42',
  crypto: { encodingAesKey: newEncodingAesKey(), appId: 'wx5823bf96d3bd56c7' },
};
/** Every answer body seen, checked at the end for stack traces. */
const bodies: string[] = [];

interface Answer {
  status: number;
  type: string | null;
  body: string;
}

async function send(server: TestServer, method: 'GET' | 'POST', query: string, body?: BodyInit): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}${PATH}?${query}`, {
    method,
    body,
    headers: body === undefined ? undefined : { 'content-type': 'text/xml' },
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const answer = { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
  bodies.push(answer.body);
  return answer;
}

/**
 * POSTs `chunks` chunks of `size` bytes, chunked (no Content-Length), on a connection of its own: the
 * server answers before the upload ends, and a connection left with half a body is no use to the next
 * request (fetch's pool would reuse it).
 */
function postStreamed(server: TestServer, query: string, chunks: number, size: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(`${server.baseUrl}${PATH}?${query}`, { method: 'POST', agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => {
        answered = true;
        request.destroy();
        bodies.push(body);
        resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'] ?? null, body });
      });
    });
    // Writes after the answer may fail (the server stops reading): only a failure before it counts.
    request.on('error', (error) => answered || reject(error));
    const chunk = Buffer.alloc(size, 'x');
    let sent = 0;
    const writeMore = () => {
      while (sent < chunks) {
        sent += 1;
        if (!request.write(chunk)) return void request.once('drain', writeMore);
      }
      request.end();
    };
    writeMore();
  });
}

function deliver(server: TestServer, account: WechatAccount, xml: string, parts: DeliveryParts = {}) {
  const delivery = signedDelivery(account, xml, parts);
  return send(server, 'POST', delivery.query, delivery.body);
}

function assertSuccess(answer: Answer, what: string) {
  assert.equal(answer.status, 200, what);
  assert.equal(answer.body, 'success', what);
  assert.match(answer.type ?? '', /^text\/plain/, what);
}

function assertTooLarge(answer: Answer, what: string) {
  assert.equal(answer.status, 413, what);
  assert.match(answer.body, /payload_too_large/, what);
}

function assertRefused(answer: Answer, what: string) {
  assert.equal(answer.status, 403, what);
  assert.equal(answer.body, 'Forbidden', what);
}

/** A passive text reply to `openId`, read as the platform reads it; its Content. */
function replyTo(openId: string, fields: Record<string, string>): string {
  assert.equal(fields.ToUserName, openId, 'the reply goes to the sender');
  assert.equal(fields.FromUserName, ACCOUNT_ID, 'the reply comes from the account');
  assert.equal(fields.MsgType, 'text');
  assert.match(fields.CreateTime, /^\d{10}$/);
  assert.ok(fields.Content, 'a reply with text');
  assert.ok(Buffer.byteLength(fields.Content, 'utf8') <= 2048, 'within the platform’s 2048 bytes');
  return fields.Content;
}

function plainReplyTo(openId: string, answer: Answer): string {
  assert.equal(answer.status, 200, answer.body);
  assert.match(answer.type ?? '', /^application\/xml/);
  return replyTo(openId, parseWechatXml(answer.body));
}

/** Whether the server logged a line `msg` whose reason starts with `reason`. */
function logged(server: TestServer, msg: string, reason: string): boolean {
  return server
    .output()
    .split('\n')
    .some((line) => line.includes(`"msg":"${msg}"`) && line.includes(`"reason":"${reason}`));
}

const minutesAgo = (minutes: number) => String(Math.floor(Date.now() / 1000) - minutes * 60);

describe('plain mode', () => {
  let server: TestServer;
  let db: Db;

  before(async () => {
    server = await startTestServer({ WECHAT_TOKEN: PLAIN.token });
    db = createDb(server.env.DATABASE_URL);
  });

  after(async () => {
    await db?.$disconnect();
    await server?.stop();
  });

  test('a signed GET is answered with its echostr as plain text', async () => {
    const answer = await send(server, 'GET', verificationQuery(PLAIN, '4375120948345356249'));
    assert.equal(answer.status, 200);
    assert.equal(answer.body, '4375120948345356249');
    assert.match(answer.type ?? '', /^text\/plain/);
  });

  test('a forged, stale or incomplete GET is refused without its echostr', async () => {
    const echostr = 'echo-me-not-8231';
    const cases: [string, string][] = [
      ['forged', verificationQuery(PLAIN, echostr, { signature: wechatSignature('wrongToken', nowSeconds(), '1') })],
      ['another token', verificationQuery({ token: 'otherToken' }, echostr)],
      ['stale', verificationQuery(PLAIN, echostr, { timestamp: minutesAgo(6) })],
      ['from the future', verificationQuery(PLAIN, echostr, { timestamp: minutesAgo(-6) })],
      ['unsigned', new URLSearchParams({ echostr, timestamp: nowSeconds(), nonce: '1' }).toString()],
    ];
    for (const [what, query] of cases) {
      const answer = await send(server, 'GET', query);
      assertRefused(answer, what);
      assert.ok(!answer.body.includes(echostr));
    }
  });

  test('a text message gets a text reply, sender and account swapped', async () => {
    plainReplyTo('oTextSender', await deliver(server, PLAIN, textMessage('oTextSender', '你好')));
  });

  test('subscribing and each menu entry get a reply; unsubscribing gets "success"', async () => {
    plainReplyTo('oMenuUser', await deliver(server, PLAIN, eventMessage('oMenuUser', 'subscribe')));
    for (const key of ['MY_KEY_USAGE', 'UPGRADE_PRO', 'CONTACT'])
      plainReplyTo('oMenuUser', await deliver(server, PLAIN, eventMessage('oMenuUser', 'CLICK', key)));
    assertSuccess(await deliver(server, PLAIN, eventMessage('oMenuUser', 'unsubscribe')), 'unsubscribe');
    assertSuccess(await deliver(server, PLAIN, eventMessage('oMenuUser', 'CLICK', 'NO_SUCH_KEY')), 'unknown key');
    assertSuccess(await deliver(server, PLAIN, eventMessage('oMenuUser', 'VIEW', 'https://x.test')), 'VIEW');
  });

  test('an image gets a reply (help), an unknown message type "success"', async () => {
    const image = textMessage('oImage', '').replace(
      '<MsgType><![CDATA[text]]></MsgType>',
      `<MsgType>${cdata('image')}</MsgType>`,
    );
    plainReplyTo('oImage', await deliver(server, PLAIN, image));
    const odd = textMessage('oImage', '').replace(
      '<MsgType><![CDATA[text]]></MsgType>',
      `<MsgType>${cdata('hologram')}</MsgType>`,
    );
    assertSuccess(await deliver(server, PLAIN, odd), 'unknown MsgType');
  });

  test('a message delivered three times is acted on once and answered alike: a bind code binds once', async () => {
    server.cliOk('user', 'create', '--email', 'wechat-dev@example.test', '--password', 'correct-horse-9');
    const user = await db.user.findUniqueOrThrow({ where: { email: 'wechat-dev@example.test' } });
    const code = server.cliOk('user', 'bind-code', '--email', user.email).trim().split('\n').at(-1)!;
    const message = textMessage('oBinder', code);
    const replies = [];
    for (let attempt = 0; attempt < 3; attempt++)
      replies.push(plainReplyTo('oBinder', await deliver(server, PLAIN, message)));
    assert.equal(new Set(replies).size, 1, `identical replies: ${JSON.stringify(replies)}`);
    const bindings = await db.channelBinding.findMany({ where: { channel: 'wechat', externalId: 'oBinder' } });
    assert.equal(bindings.length, 1);
    assert.equal(bindings[0].userId, user.id);
    assert.equal(await db.auditEvent.count({ where: { action: 'channel.bind', targetUserId: user.id } }), 1);
    assert.equal(await db.channelBindCode.count({ where: { userId: user.id } }), 0, 'the code is used up');
  });

  test('a stale or forged POST is refused and not acted on', async () => {
    const cases: [string, DeliveryParts][] = [
      ['stale', { timestamp: minutesAgo(6) }],
      ['forged', { signature: wechatSignature('wrongToken', nowSeconds(), '77') }],
      ['unsigned', { signature: '' }],
    ];
    for (const [what, parts] of cases) {
      const message = textMessage('oRefused', 'hello');
      assertRefused(await deliver(server, PLAIN, message, parts), what);
    }
    for (const reason of ['stale or missing timestamp', 'bad signature'])
      assert.ok(logged(server, 'wechat request refused', reason), `a log line: ${reason}`);
    assert.equal(await db.channelDelivery.count({ where: { deliveryId: { contains: 'oRefused' } } }), 0);
  });

  test('a flood of forged POSTs is refused every time but logged only for its first few', async () => {
    for (let i = 0; i < 3 * SAMPLED_LINES_PER_WINDOW; i++) {
      const forged = { signature: wechatSignature('wrongToken', nowSeconds(), String(i)) };
      assertRefused(await deliver(server, PLAIN, textMessage('oFlood', 'hello'), forged), `forged ${i}`);
    }
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"wechat request refused","method":"POST","reason":"bad signature"'));
    assert.ok(lines.length >= 1 && lines.length <= SAMPLED_LINES_PER_WINDOW, `${lines.length} lines`);
  });

  test('a captured signature cannot carry another body; the same body again is a retry', async () => {
    const timestamp = nowSeconds();
    const nonce = freshNonce();
    const original = textMessage('oVictim', 'hello');
    const first = plainReplyTo('oVictim', await deliver(server, PLAIN, original, { timestamp, nonce }));
    assertRefused(
      await deliver(server, PLAIN, textMessage('oAttacker', 'ABCD-2345'), { timestamp, nonce }),
      'another body, same nonce',
    );
    assert.equal(plainReplyTo('oVictim', await deliver(server, PLAIN, original, { timestamp, nonce })), first);
  });

  test('the signed query of an ignored delivery, or of a GET, cannot carry a forged body', async () => {
    // Everything the endpoint answers "success" without acting on, and the GET verification.
    const withType = (type: string) =>
      textMessage('oIgnored', 'hi').replace('<MsgType><![CDATA[text]]></MsgType>', `<MsgType>${cdata(type)}</MsgType>`);
    const ignored: [string, string][] = [
      ['VIEW', eventMessage('oIgnored', 'VIEW', 'https://chem.example.test/keys')],
      ['LOCATION', eventMessage('oIgnored', 'LOCATION')],
      ['SCAN', eventMessage('oIgnored', 'SCAN', '123')],
      ['unknown menu key', eventMessage('oIgnored', 'CLICK', 'NO_SUCH_KEY')],
      ['another event', eventMessage('oIgnored', 'TEMPLATESENDJOBFINISH')],
      ['unsubscribe', eventMessage('oIgnored', 'unsubscribe')],
      ['unknown MsgType', withType('hologram')],
      ['no MsgId', textMessage('oIgnored', 'hi').replace(/<MsgId>.*<\/MsgId>/, '')],
      ['not XML', '{"MsgType":"text"}'],
    ];
    const forged = (what: string) => textMessage(`oForger${what.replace(/\W/g, '')}`, 'newkey');
    const [users, keys] = [await db.user.count(), await db.apiKey.count()];
    for (const [what, body] of ignored) {
      const signed = { timestamp: nowSeconds(), nonce: freshNonce() };
      assertSuccess(await deliver(server, PLAIN, body, signed), what);
      assertRefused(await deliver(server, PLAIN, forged(what), signed), `${what}, replayed with a forged body`);
      // The platform's retry of the same delivery is still answered.
      assertSuccess(await deliver(server, PLAIN, body, signed), `${what}, delivered again`);
    }
    const signed = { timestamp: nowSeconds(), nonce: freshNonce() };
    assert.equal((await send(server, 'GET', verificationQuery(PLAIN, 'echo-1', signed))).body, 'echo-1');
    assertRefused(await deliver(server, PLAIN, forged('GET'), signed), 'a GET verification, replayed as a POST');
    assert.ok(logged(server, 'wechat request refused', 'signature already used for another request'));
    // No forged follower got an account, a binding or a key.
    assert.equal(await db.channelBinding.count({ where: { externalId: { startsWith: 'oForger' } } }), 0);
    assert.deepEqual([await db.user.count(), await db.apiKey.count()], [users, keys]);
  });

  test('hostile and broken bodies get "success", and nothing is acted on', async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]><xml><ToUserName>${cdata(ACCOUNT_ID)}</ToUserName><FromUserName>${cdata('oHostile')}</FromUserName><CreateTime>1</CreateTime><MsgType>${cdata('text')}</MsgType><Content>&lol2;</Content><MsgId>1</MsgId></xml>`;
    const xxe = bomb.replace(/<!DOCTYPE[^\]]*\]>/, '<!DOCTYPE xml [<!ENTITY lol2 SYSTEM "file:///etc/passwd">]>');
    const cases: [string, string][] = [
      ['entity bomb', bomb],
      ['external entity', xxe],
      ['truncated', textMessage('oHostile', 'hi').slice(0, -12)],
      ['not XML', '{"MsgType":"text"}'],
      ['empty', ''],
      ['no MsgId', textMessage('oHostile', 'hi').replace(/<MsgId>.*<\/MsgId>/, '')],
    ];
    for (const [what, body] of cases) assertSuccess(await deliver(server, PLAIN, body), what);

    // Over the endpoint's body cap, declared or streamed without a Content-Length: the server refuses it
    // before the endpoint reads a byte (lib/http/body-caps.ts), so nothing is claimed or acted on.
    assertTooLarge(await deliver(server, PLAIN, `<xml><Content>${'x'.repeat(1024 * 1024)}</Content></xml>`), '1 MB');
    assertTooLarge(await postStreamed(server, signedDelivery(PLAIN, '').query, 16, 64 * 1024), 'streamed 1 MB');
    for (const reason of ['DOCTYPE or ENTITY declaration', 'not well-formed XML'])
      assert.ok(logged(server, 'wechat delivery not acted on', reason), `a log line: ${reason}`);
    assert.equal(await db.channelDelivery.count({ where: { deliveryId: { contains: 'oHostile' } } }), 0);
  });

  test('a GET or POST without parameters is refused', async () => {
    assertRefused(await send(server, 'GET', ''), 'GET');
    assertRefused(await send(server, 'POST', '', textMessage('oBare', 'hi')), 'POST');
  });
});

describe('safe mode', () => {
  let server: TestServer;
  let db: Db;

  before(async () => {
    server = await startTestServer({
      WECHAT_TOKEN: SAFE.token,
      WECHAT_ENCODING_AES_KEY: SAFE.crypto!.encodingAesKey,
      WECHAT_APP_ID: SAFE.crypto!.appId,
      WECHAT_LANGUAGE: 'en',
    });
    db = createDb(server.env.DATABASE_URL);
  });

  after(async () => {
    await db?.$disconnect();
    await server?.stop();
  });

  test('the GET verification is the same as in plain mode', async () => {
    const answer = await send(server, 'GET', verificationQuery(SAFE, '1514711492'));
    assert.equal(answer.status, 200);
    assert.equal(answer.body, '1514711492');
  });

  test('an encrypted message gets an encrypted reply, signed, for the account’s AppID', async () => {
    const delivery = signedDelivery(SAFE, textMessage('oSafeSender', 'hello'));
    const answer = await send(server, 'POST', delivery.query, delivery.body);
    assert.equal(answer.status, 200, answer.body);
    assert.match(answer.type ?? '', /^application\/xml/);
    assert.doesNotMatch(answer.body, /oSafeSender|<Content>/, 'nothing readable outside the Encrypt element');
    const envelope = parseWechatXml(answer.body);
    assert.equal(envelope.TimeStamp, delivery.timestamp);
    assert.equal(envelope.Nonce, delivery.nonce);
    replyTo('oSafeSender', openEncryptedReply(SAFE, answer.body));
  });

  test('menu clicks are answered encrypted too', async () => {
    for (const key of ['MY_KEY_USAGE', 'UPGRADE_PRO', 'CONTACT']) {
      const answer = await deliver(server, SAFE, eventMessage('oSafeClicker', 'CLICK', key));
      replyTo('oSafeClicker', openEncryptedReply(SAFE, answer.body));
    }
  });

  test('a forged msg_signature, a plain body or a message for another AppID is refused', async () => {
    const message = textMessage('oSafeRefused', 'hello');
    assertRefused(await deliver(server, SAFE, message, { msgSignature: 'f'.repeat(40) }), 'msg_signature');

    // A plain delivery (no encrypt_type) while safe mode is on: the signature alone does not cover the body.
    const plain = signedDelivery(PLAIN, message);
    const query = new URLSearchParams(plain.query);
    query.set('signature', wechatSignature(SAFE.token, plain.timestamp, plain.nonce));
    assertRefused(await send(server, 'POST', query.toString(), message), 'plain body');

    // Signed correctly, but encrypted for another account.
    const timestamp = nowSeconds();
    const nonce = freshNonce();
    const encrypt = encryptMessage(aesKeyOf(SAFE.crypto!.encodingAesKey), 'wx0000000000000000', message);
    const foreign = new URLSearchParams({
      signature: wechatSignature(SAFE.token, timestamp, nonce),
      timestamp,
      nonce,
      encrypt_type: 'aes',
      msg_signature: wechatSignature(SAFE.token, timestamp, nonce, encrypt),
    });
    assertRefused(
      await send(server, 'POST', foreign.toString(), `<xml><Encrypt>${cdata(encrypt)}</Encrypt></xml>`),
      'another AppID',
    );
    assert.equal(await db.channelDelivery.count({ where: { deliveryId: { contains: 'oSafeRefused' } } }), 0);
  });

  test('a hostile body inside valid encryption gets "success"', async () => {
    const bomb = '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><xml><Content>&b;</Content></xml>';
    assertSuccess(await deliver(server, SAFE, bomb), 'encrypted entity bomb');
  });
});

test('no answer carried a stack trace or an error message', () => {
  assert.ok(bodies.length > 20, `${bodies.length} answers seen`);
  for (const body of bodies) assert.doesNotMatch(body, /\n\s+at |Error:|node_modules/, body.slice(0, 200));
});
