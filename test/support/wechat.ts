/**
 * The WeChat platform's side, for tests: requests signed (and in safe mode encrypted) the way the
 * platform sends them to the account's server URL, its replies read back, and a local stand-in for the
 * platform API (token, menu, customer-service messages) that checks what it is sent as the documentation
 * describes and answers the documented JSON.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decryptMessage, encryptMessage } from '../../lib/channels/wechat/crypto.ts';
import { wechatSignature } from '../../lib/channels/wechat/signature.ts';
import { cdata, parseWechatXml } from '../../lib/channels/wechat/xml.ts';

export interface WechatAccount {
  token: string;
  /** Safe mode's key and AppID; absent in plain mode. */
  crypto?: { encodingAesKey: string; appId: string };
}

export const aesKeyOf = (encodingAesKey: string) => Buffer.from(`${encodingAesKey}=`, 'base64');

/** A fresh EncodingAESKey as the platform generates them: 43 letters and digits. */
export function newEncodingAesKey(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length: 43 }, () => alphabet[randomInt(alphabet.length)]).join('');
}

let nonceCounter = 0;
/** A nonce no other request of this process has used (the platform's are digits). */
export function freshNonce(): string {
  return `${Date.now() % 1_000_000}${++nonceCounter}${Math.floor(Math.random() * 1000)}`;
}

export const nowSeconds = () => String(Math.floor(Date.now() / 1000));

/** The fields as the platform writes them: strings in CDATA, numbers bare. */
export function messageXml(fields: Record<string, string | number>): string {
  const body = Object.entries(fields)
    .map(([name, value]) => `<${name}>${typeof value === 'number' ? value : cdata(value)}</${name}>`)
    .join('');
  return `<xml>${body}</xml>`;
}

let msgIds = BigInt(Date.now()) * 1000n;
/** A text message from `openId` to the account `account`, with a MsgId of its own unless given. */
export function textMessage(
  openId: string,
  content: string,
  { account = 'gh_account', msgId = String(++msgIds) } = {},
) {
  return messageXml({
    ToUserName: account,
    FromUserName: openId,
    CreateTime: Math.floor(Date.now() / 1000),
    MsgType: 'text',
    Content: content,
    MsgId: msgId,
  });
}

/** An event, e.g. ('CLICK', 'MY_KEY_USAGE') or ('subscribe'). */
export function eventMessage(
  openId: string,
  event: string,
  eventKey?: string,
  { account = 'gh_account', createTime = Math.floor(Date.now() / 1000) } = {},
) {
  return messageXml({
    ToUserName: account,
    FromUserName: openId,
    CreateTime: createTime,
    MsgType: 'event',
    Event: event,
    ...(eventKey === undefined ? {} : { EventKey: eventKey }),
  });
}

export interface SignedParts {
  timestamp?: string;
  nonce?: string;
  /** Replaces the computed signature (a forgery). */
  signature?: string;
}

/** The query string of a GET verification, signed unless `signature` is given. */
export function verificationQuery(account: WechatAccount, echostr: string, parts: SignedParts = {}): string {
  const timestamp = parts.timestamp ?? nowSeconds();
  const nonce = parts.nonce ?? freshNonce();
  const signature = parts.signature ?? wechatSignature(account.token, timestamp, nonce);
  return new URLSearchParams({ signature, timestamp, nonce, echostr }).toString();
}

export interface DeliveryParts extends SignedParts {
  /** Replaces the computed msg_signature in safe mode (a forgery). */
  msgSignature?: string;
}

/**
 * A POST as the platform makes it: in plain mode the XML as the body and `signature` in the query; in
 * safe mode the XML encrypted into an <Encrypt> envelope, with encrypt_type=aes and msg_signature too.
 */
export function signedDelivery(
  account: WechatAccount,
  xml: string,
  parts: SignedParts & { msgSignature?: string } = {},
) {
  const timestamp = parts.timestamp ?? nowSeconds();
  const nonce = parts.nonce ?? freshNonce();
  const signature = parts.signature ?? wechatSignature(account.token, timestamp, nonce);
  const query = new URLSearchParams({ signature, timestamp, nonce });
  if (!account.crypto) return { query: query.toString(), body: xml, timestamp, nonce };
  const encrypt = encryptMessage(aesKeyOf(account.crypto.encodingAesKey), account.crypto.appId, xml);
  query.set('encrypt_type', 'aes');
  query.set('msg_signature', parts.msgSignature ?? wechatSignature(account.token, timestamp, nonce, encrypt));
  const body = `<xml><ToUserName>${cdata('gh_account')}</ToUserName><Encrypt>${cdata(encrypt)}</Encrypt></xml>`;
  return { query: query.toString(), body, timestamp, nonce };
}

/**
 * A safe-mode reply opened as the platform would: its MsgSignature checked against its TimeStamp, Nonce
 * and Encrypt, then decrypted for the account's AppID. Returns the inner reply's fields.
 */
export function openEncryptedReply(account: WechatAccount, replyXml: string): Record<string, string> {
  assert.ok(account.crypto, 'a safe-mode account');
  const envelope = parseWechatXml(replyXml);
  assert.ok(envelope.Encrypt && envelope.MsgSignature && envelope.TimeStamp && envelope.Nonce, replyXml);
  assert.equal(
    envelope.MsgSignature,
    wechatSignature(account.token, envelope.TimeStamp, envelope.Nonce, envelope.Encrypt),
    'MsgSignature must sign the reply',
  );
  return parseWechatXml(
    decryptMessage(aesKeyOf(account.crypto.encodingAesKey), account.crypto.appId, envelope.Encrypt),
  );
}

export interface StandInRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export interface WechatApiStandIn {
  /** Its address, for WECHAT_API_BASE. */
  baseUrl: string;
  requests: StandInRequest[];
  /** Access tokens handed out, in order. */
  issued: string[];
  /** Makes every token issued so far answer `errcode` (40001 invalid, 42001 expired) from now on. */
  revokeTokens: (errcode: 40001 | 42001) => void;
  close: () => Promise<void>;
}

const byteLength = (text: unknown) => (typeof text === 'string' ? Buffer.byteLength(text, 'utf8') : Number.NaN);

/** The menu rules /cgi-bin/menu/create enforces: 1–3 buttons, names ≤ 16 bytes, click keys ≤ 128 bytes. */
function menuError(body: unknown): { errcode: number; errmsg: string } | null {
  const buttons = (body as { button?: unknown })?.button;
  if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 3)
    return { errcode: 40016, errmsg: 'invalid button size' };
  for (const button of buttons) {
    if (button?.type !== 'click') return { errcode: 40017, errmsg: 'invalid button type' };
    if (!(byteLength(button.name) <= 16)) return { errcode: 40018, errmsg: 'invalid button name size' };
    if (!(byteLength(button.key) <= 128)) return { errcode: 40019, errmsg: 'invalid button key size' };
  }
  return null;
}

function customSendError(body: unknown): { errcode: number; errmsg: string } | null {
  const message = body as { touser?: unknown; msgtype?: unknown; text?: { content?: unknown } };
  if (typeof message?.touser !== 'string' || !message.touser) return { errcode: 40003, errmsg: 'invalid openid' };
  if (message.msgtype !== 'text') return { errcode: 40008, errmsg: 'invalid message type' };
  if (!(byteLength(message.text?.content) <= 2048)) return { errcode: 45002, errmsg: 'content size out of limit' };
  return null;
}

/** A stand-in for https://api.weixin.qq.com serving GET /cgi-bin/token and the two POST APIs. */
export async function startWechatApiStandIn(app: { appId: string; appSecret: string }): Promise<WechatApiStandIn> {
  const requests: StandInRequest[] = [];
  const issued: string[] = [];
  const revoked = new Map<string, number>();
  const answer = (res: ServerResponse, json: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(json));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    let text = '';
    for await (const chunk of req) text += chunk;
    const body = text ? JSON.parse(text) : undefined;
    requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, body });
    if (req.method === 'GET' && url.pathname === '/cgi-bin/token') {
      if (url.searchParams.get('grant_type') !== 'client_credential')
        return answer(res, { errcode: 40002, errmsg: 'invalid grant_type' });
      if (url.searchParams.get('appid') !== app.appId) return answer(res, { errcode: 40013, errmsg: 'invalid appid' });
      if (url.searchParams.get('secret') !== app.appSecret)
        return answer(res, { errcode: 40125, errmsg: 'invalid appsecret' });
      const token = `token-${issued.length + 1}-${randomBytes(8).toString('hex')}`;
      issued.push(token);
      return answer(res, { access_token: token, expires_in: 7200 });
    }
    const checks: Record<string, (body: unknown) => { errcode: number; errmsg: string } | null> = {
      '/cgi-bin/menu/create': menuError,
      '/cgi-bin/message/custom/send': customSendError,
    };
    const check = req.method === 'POST' ? checks[url.pathname] : undefined;
    if (!check) {
      res.writeHead(404);
      return res.end();
    }
    const token = url.searchParams.get('access_token') ?? '';
    if (!issued.includes(token)) return answer(res, { errcode: 40001, errmsg: 'invalid credential' });
    const revokedWith = revoked.get(token);
    if (revokedWith === 42001) return answer(res, { errcode: 42001, errmsg: 'access_token expired' });
    if (revokedWith) return answer(res, { errcode: 40001, errmsg: 'invalid credential, access_token is invalid' });
    return answer(res, check(body) ?? { errcode: 0, errmsg: 'ok' });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      res.writeHead(400);
      res.end();
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    issued,
    revokeTokens: (errcode) => {
      for (const token of issued) revoked.set(token, errcode);
    },
    close: () => new Promise((done) => server.close(() => done())),
  };
}
