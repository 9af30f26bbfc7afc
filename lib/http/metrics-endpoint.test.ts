/** Who may read /api/metrics: the token when one is set (from anywhere), else loopback, else everyone when opened. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { metricsAccess } from './metrics-endpoint.ts';

const closed = { metricsToken: undefined, metricsOpen: false };
const opened = { metricsToken: undefined, metricsOpen: true };
const withToken = { metricsToken: 's3cret-token', metricsOpen: false };

test('without a token: loopback addresses are answered, others are not, and an unknown address counts as remote', () => {
  for (const address of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1'])
    assert.equal(metricsAccess(null, address, closed), 'granted', address);
  for (const address of ['203.0.113.5', '::ffff:10.0.0.1', '2001:db8::1', '', null])
    assert.equal(metricsAccess(null, address, closed), 'loopback_only', String(address));
});

test('METRICS_OPEN=1 answers every address', () => {
  assert.equal(metricsAccess(null, '203.0.113.5', opened), 'granted');
  assert.equal(metricsAccess(null, null, opened), 'granted');
});

test('with a token, only the right Bearer token is answered, from loopback as from anywhere', () => {
  assert.equal(metricsAccess('Bearer s3cret-token', '203.0.113.5', withToken), 'granted');
  assert.equal(metricsAccess('bearer s3cret-token', '127.0.0.1', withToken), 'granted');
  for (const header of [null, 'Bearer s3cret-toke', 'Bearer s3cret-token-', 's3cret-token', 'Basic s3cret-token'])
    assert.equal(metricsAccess(header, '127.0.0.1', withToken), 'token_required', String(header));
  assert.equal(
    metricsAccess(null, '203.0.113.5', { ...withToken, metricsOpen: true }),
    'token_required',
    'a token outranks METRICS_OPEN',
  );
});
