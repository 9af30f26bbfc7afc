import assert from 'node:assert/strict';
import { it } from 'node:test';
import { containsSecretFragment, redactSecretFragments } from '../ops/redact.ts';
import { displayKey, generateKey, KEY_LENGTH, KEY_PATTERN, keyDisplayParts, keyFormatProblem } from './format.ts';

it('generates cf_ keys of 32 random base62 characters plus a checksum, all distinct', () => {
  const keys = new Set(Array.from({ length: 2000 }, generateKey));
  assert.equal(keys.size, 2000);
  for (const key of keys) {
    assert.match(key, /^cf_[0-9A-Za-z]{38}$/);
    assert.equal(key.length, KEY_LENGTH);
    assert.equal(keyFormatProblem(key), null);
  }
});

it('uses every base62 character at about the same rate (no modulo bias)', () => {
  const counts = new Map<string, number>();
  for (let i = 0; i < 3000; i++) for (const c of generateKey().slice(3, 35)) counts.set(c, (counts.get(c) ?? 0) + 1);
  assert.equal(counts.size, 62);
  const expected = (3000 * 32) / 62;
  for (const [c, n] of counts) assert.ok(Math.abs(n - expected) < expected * 0.2, `${c}: ${n} vs ${expected}`);
});

it('rejects wrong prefix, length, characters and every single-character typo', () => {
  const key = generateKey();
  assert.equal(keyFormatProblem(`sk_${key.slice(3)}`), 'prefix');
  assert.equal(keyFormatProblem(`${key}a`), 'length');
  assert.equal(keyFormatProblem(`${key.slice(0, 20)}-${key.slice(21)}`), 'characters');
  for (let i = 3; i < key.length; i++) {
    const typo = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    assert.equal(keyFormatProblem(typo), 'checksum', `typo at ${i}`);
  }
});

it('shows keys as cf_ + first 4 … last 4, and scanners find them in text', () => {
  const key = generateKey();
  assert.equal(displayKey(keyDisplayParts(key)), `cf_${key.slice(3, 7)}…${key.slice(-4)}`);
  assert.deepEqual(`config: {"key": "${key}"}`.match(KEY_PATTERN), [key]);
});

it('redacts every secret fragment in a text and keeps what a display form shows', () => {
  const key = generateKey();
  const text = `source: https://x.example/?k=${key} and Bearer ${key.slice(0, 20)} and cf_abcd`;
  const redacted = redactSecretFragments(text);
  assert.equal(containsSecretFragment(redacted), false);
  assert.ok(redacted.includes(`${key.slice(0, 7)}…[redacted]`));
  assert.ok(redacted.endsWith('and cf_abcd'), 'a display-length fragment is left alone');
});

it('redacts OAuth refresh tokens (cfr_) as it redacts keys', () => {
  const refresh = `cfr_${'0123456789abcdef'.repeat(4)}`;
  const redacted = redactSecretFragments(`refresh_token=${refresh}&grant_type=refresh_token`);
  assert.equal(redacted, 'refresh_token=cfr_012…[redacted]&grant_type=refresh_token');
  assert.ok(containsSecretFragment(refresh));
});
