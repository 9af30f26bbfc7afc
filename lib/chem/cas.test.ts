import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidCas } from './cas.ts';

test('accepts CAS numbers whose check digit is right', () => {
  // 7732-18-5 (water): (8·1 + 1·2 + 2·3 + 3·4 + 7·5 + 7·6) mod 10 = 105 mod 10 = 5
  for (const cas of ['7732-18-5', '64-17-5', '124-38-9', '7440-37-1', '1333-74-0']) assert.ok(isValidCas(cas), cas);
});

test('rejects a wrong check digit or a malformed number', () => {
  for (const cas of [
    '7732-18-4',
    '64-17-6',
    '7732185',
    '7732-1-85',
    '1-23-4',
    '12345678-90-1',
    ' 64-17-5',
    '64–17–5',
  ]) {
    assert.equal(isValidCas(cas), false, cas);
  }
});
