import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FRESH_MS, isFresh, signatureMatches, wechatSignature } from './signature.ts';

// The platform documentation's worked examples (消息推送 / 消息加解密说明), Token "AAAAA".
const DOC_GET = { timestamp: '1714036504', nonce: '1514711492', signature: 'f464b24fc39322e44b38aa78f5edd27bd1441696' };
const DOC_POST = { timestamp: '1714037059', nonce: '486452656', signature: '899cf89e464efb63f54ddac96b0a0a235f53aa78' };

test('the signature is SHA-1 of the sorted, joined parts, as in the documentation’s examples', () => {
  for (const example of [DOC_GET, DOC_POST]) {
    assert.equal(wechatSignature('AAAAA', example.timestamp, example.nonce), example.signature);
    // Sorted, so the order the parts are given in does not matter.
    assert.equal(wechatSignature(example.nonce, 'AAAAA', example.timestamp), example.signature);
  }
});

test('signatureMatches accepts the right signature only', () => {
  const { timestamp, nonce, signature } = DOC_GET;
  assert.equal(signatureMatches(signature, 'AAAAA', timestamp, nonce), true);
  assert.equal(signatureMatches(signature.toUpperCase(), 'AAAAA', timestamp, nonce), true);
  assert.equal(signatureMatches(signature, 'AAAAB', timestamp, nonce), false);
  assert.equal(signatureMatches(signature, 'AAAAA', timestamp, `${nonce}1`), false);
  assert.equal(signatureMatches(`${signature.slice(0, -1)}0`, 'AAAAA', timestamp, nonce), false);
  assert.equal(signatureMatches(signature.slice(0, 20), 'AAAAA', timestamp, nonce), false);
  assert.equal(signatureMatches('', 'AAAAA', timestamp, nonce), false);
  assert.equal(signatureMatches(null, 'AAAAA', timestamp, nonce), false);
  assert.equal(signatureMatches(`${signature}é`, 'AAAAA', timestamp, nonce), false);
});

test('a timestamp is fresh within five minutes either side of now, and must be digits', () => {
  const now = 1_714_036_504_000;
  assert.equal(isFresh('1714036504', now), true);
  assert.equal(isFresh(String((now + FRESH_MS) / 1000), now), true);
  assert.equal(isFresh(String((now - FRESH_MS) / 1000), now), true);
  assert.equal(isFresh(String((now - FRESH_MS) / 1000 - 1), now), false);
  assert.equal(isFresh(String((now + FRESH_MS) / 1000 + 1), now), false);
  for (const bad of [null, undefined, '', '-1', '1714036504.5', '1e9', ' 1714036504', '0x66290000'])
    assert.equal(isFresh(bad, now), false, String(bad));
});
