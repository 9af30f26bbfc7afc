import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { decryptMessage, encryptMessage, WechatCryptoError } from './crypto.ts';
import { wechatSignature } from './signature.ts';

// The platform's published WXBizMsgCrypt sample (Sample.cs / Sample.java in its download).
const SAMPLE = {
  token: 'QDG6eK',
  encodingAesKey: 'jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C',
  appId: 'wx5823bf96d3bd56c7',
  timestamp: '1409659813',
  nonce: '1372623149',
  msgSignature: '477715d11cdb4164915debcba66cb864d751f3e6',
  encrypt:
    'RypEvHKD8QQKFhvQ6QleEB4J58tiPdvo+rtK1I9qca6aM/wvqnLSV5zEPeusUiX5L5X/0lWfrf0QADHHhGd3QczcdCUpj911L3vg3W/sYYvuJTs3TUUkSUXxaccAS0qhxchrRYt66wiSpGLYL42aM6A8dTT+6k4aSknmPj48kzJs8qLjvd4Xgpue06DOdnLxAUHzM6+kDZ+HMZfJYuR+LtwGc2hgf5gsijff0ekUNXZiqATP7PF5mZxZ3Izoun1s4zG4LUMnvw2r+KqCKIw+3IQH03v+BCA9nMELNqbSf6tiWSrXJB3LAVGUcallcrw8V2t9EL4EhzJWrQUax5wLVMNS0+rUPA3k22Ncx4XXZS9o0MBH27Bo6BpNelZpS+/uh9KsNlY6bHCmJU9p8g7m3fVKn28H3KDYA5Pl/T8Z1ptDAVe0lXdQ2YoyyH2uyPIGHBZZIs2pDBS8R07+qN+E7Q==',
};
const KEY = Buffer.from(`${SAMPLE.encodingAesKey}=`, 'base64');

test('the platform’s sample: msg_signature signs its Encrypt, which decrypts to its text message', () => {
  assert.equal(wechatSignature(SAMPLE.token, SAMPLE.timestamp, SAMPLE.nonce, SAMPLE.encrypt), SAMPLE.msgSignature);
  const xml = decryptMessage(KEY, SAMPLE.appId, SAMPLE.encrypt);
  assert.match(xml, /^<xml><ToUserName><!\[CDATA\[wx5823bf96d3bd56c7\]\]><\/ToUserName>/);
  assert.match(xml, /<Content><!\[CDATA\[hello\]\]><\/Content>/);
  assert.match(xml, /<MsgId>4561255354251345929<\/MsgId>/);
});

test('a message survives the round trip, multi-byte text included; each encryption differs', () => {
  const message = '<xml><Content><![CDATA[密钥与用量 — 1 234 calls 🧪]]></Content></xml>';
  const first = encryptMessage(KEY, SAMPLE.appId, message);
  const second = encryptMessage(KEY, SAMPLE.appId, message);
  assert.notEqual(first, second, 'the 16 random bytes make each ciphertext new');
  assert.equal(decryptMessage(KEY, SAMPLE.appId, first), message);
  assert.equal(decryptMessage(KEY, SAMPLE.appId, second), message);
  assert.equal(Buffer.from(first, 'base64').length % 32, 0, 'padded to the 32-byte block');
  for (const length of [0, 1, 11, 12, 13, 31, 32, 33]) {
    const text = 'x'.repeat(length);
    assert.equal(decryptMessage(KEY, SAMPLE.appId, encryptMessage(KEY, SAMPLE.appId, text)), text, `length ${length}`);
  }
});

test('a tampered ciphertext is refused', () => {
  const data = Buffer.from(SAMPLE.encrypt, 'base64');
  for (const at of [data.length - 1, data.length - 20]) {
    const tampered = Buffer.from(data);
    tampered[at] ^= 0x01;
    assert.throws(
      () => decryptMessage(KEY, SAMPLE.appId, tampered.toString('base64')),
      WechatCryptoError,
      `byte ${at}`,
    );
  }
  assert.throws(() => decryptMessage(KEY, SAMPLE.appId, data.subarray(0, 48).toString('base64')), WechatCryptoError);
  assert.throws(() => decryptMessage(KEY, SAMPLE.appId, ''), WechatCryptoError);
  assert.throws(() => decryptMessage(KEY, SAMPLE.appId, 'not base64!'), WechatCryptoError);
  assert.throws(() => decryptMessage(randomBytes(32), SAMPLE.appId, SAMPLE.encrypt), WechatCryptoError);
});

/** Encrypts raw bytes with the sample key, no padding added: for plaintexts the encoder would never write. */
function rawEncrypt(plain: Buffer): string {
  const cipher = createCipheriv('aes-256-cbc', KEY, KEY.subarray(0, 16)).setAutoPadding(false);
  return Buffer.concat([cipher.update(plain), cipher.final()]).toString('base64');
}

function framed(message: string, appId: string): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(Buffer.byteLength(message));
  return Buffer.concat([randomBytes(16), length, Buffer.from(message), Buffer.from(appId)]);
}

test('bad padding is refused: a zero pad, a pad over 32, or pad bytes that disagree', () => {
  const body = framed('<xml/>', SAMPLE.appId); // 16 + 4 + 6 + 18 = 44 bytes: 20 bytes of pad make 64
  const pads = [
    Buffer.alloc(20, 0),
    Buffer.concat([Buffer.alloc(19, 20), Buffer.from([33])]),
    Buffer.concat([Buffer.alloc(19, 7), Buffer.from([20])]),
  ];
  for (const pad of pads) {
    assert.equal((body.length + pad.length) % 32, 0);
    assert.throws(() => decryptMessage(KEY, SAMPLE.appId, rawEncrypt(Buffer.concat([body, pad]))), WechatCryptoError);
  }
  // The same framing with its right padding is accepted, so the refusals above are about the padding.
  assert.equal(decryptMessage(KEY, SAMPLE.appId, rawEncrypt(Buffer.concat([body, Buffer.alloc(20, 20)]))), '<xml/>');
});

test('a message for another AppID, or with a length past its end, is refused', () => {
  assert.throws(
    () => decryptMessage(KEY, SAMPLE.appId, encryptMessage(KEY, 'wx0000000000000000', '<xml/>')),
    /another AppID/,
  );
  assert.throws(() => decryptMessage(KEY, 'wx0000000000000000', SAMPLE.encrypt), /another AppID/);
  const lying = framed('<xml/>', SAMPLE.appId);
  lying.writeUInt32BE(1000, 16);
  assert.throws(
    () => decryptMessage(KEY, SAMPLE.appId, rawEncrypt(Buffer.concat([lying, Buffer.alloc(20, 20)]))),
    /bad message length/,
  );
});
