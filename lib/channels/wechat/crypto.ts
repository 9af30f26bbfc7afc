/**
 * Safe mode's message encryption, as the platform documents it (消息加解密 / WXBizMsgCrypt): AES-256-CBC
 * with the 32-byte key decoded from EncodingAESKey and its first 16 bytes as IV; the plaintext is
 * 16 random bytes, the message's byte length (4 bytes, big-endian), the message, then the account's
 * AppID; padding is PKCS#7 to a multiple of 32 bytes (not AES's 16), so Node's own padding is off.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const PAD_BLOCK = 32;
const RANDOM_BYTES = 16;
const LENGTH_BYTES = 4;

/** Why an Encrypt text was refused; never the key or the plaintext. */
export class WechatCryptoError extends Error {}

function pad(data: Buffer): Buffer {
  const amount = PAD_BLOCK - (data.length % PAD_BLOCK);
  return Buffer.concat([data, Buffer.alloc(amount, amount)]);
}

function unpad(data: Buffer): Buffer {
  const amount = data.at(-1) ?? 0;
  if (amount < 1 || amount > PAD_BLOCK || amount > data.length) throw new WechatCryptoError('bad padding');
  for (let i = data.length - amount; i < data.length; i++)
    if (data[i] !== amount) throw new WechatCryptoError('bad padding');
  return data.subarray(0, data.length - amount);
}

/** Base64 of the encrypted message, as the Encrypt element carries it. */
export function encryptMessage(aesKey: Buffer, appId: string, message: string, random = randomBytes(RANDOM_BYTES)) {
  const body = Buffer.from(message, 'utf8');
  const length = Buffer.alloc(LENGTH_BYTES);
  length.writeUInt32BE(body.length);
  const cipher = createCipheriv('aes-256-cbc', aesKey, aesKey.subarray(0, 16)).setAutoPadding(false);
  const plain = pad(Buffer.concat([random, length, body, Buffer.from(appId, 'utf8')]));
  return Buffer.concat([cipher.update(plain), cipher.final()]).toString('base64');
}

/** The message inside an Encrypt text, checked to be for `appId`; a WechatCryptoError otherwise. */
export function decryptMessage(aesKey: Buffer, appId: string, encrypted: string): string {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encrypted)) throw new WechatCryptoError('not base64');
  const data = Buffer.from(encrypted, 'base64');
  if (data.length === 0 || data.length % PAD_BLOCK !== 0) throw new WechatCryptoError('bad ciphertext length');
  const decipher = createDecipheriv('aes-256-cbc', aesKey, aesKey.subarray(0, 16)).setAutoPadding(false);
  const plain = unpad(Buffer.concat([decipher.update(data), decipher.final()]));
  if (plain.length < RANDOM_BYTES + LENGTH_BYTES) throw new WechatCryptoError('too short');
  const length = plain.readUInt32BE(RANDOM_BYTES);
  const start = RANDOM_BYTES + LENGTH_BYTES;
  if (start + length > plain.length) throw new WechatCryptoError('bad message length');
  const sender = plain.subarray(start + length).toString('utf8');
  if (sender !== appId) throw new WechatCryptoError('encrypted for another AppID');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(plain.subarray(start, start + length));
  } catch {
    throw new WechatCryptoError('message is not UTF-8');
  }
}
