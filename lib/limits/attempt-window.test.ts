import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AttemptWindow } from './attempt-window.ts';

test('allows `limit` attempts per window, then says how long to wait until the oldest one expires', () => {
  const window = new AttemptWindow(3, 60_000);
  for (const at of [0, 1000, 2000]) assert.equal(window.take('a', at), 0);
  assert.equal(window.take('a', 3000), 57_000);
  assert.equal(window.retryAfterMs('b', 3000), 0, 'other keys are unaffected');
  assert.equal(window.take('a', 60_001), 0, 'the first attempt left the window');
});

test('clear forgets a key, and the number of tracked keys is bounded', () => {
  const window = new AttemptWindow(1, 60_000, 2);
  window.record('a', 0);
  window.clear('a');
  assert.equal(window.retryAfterMs('a', 1), 0);
  window.record('a', 0);
  window.record('b', 0);
  window.record('c', 0);
  assert.equal(window.retryAfterMs('a', 1), 0, 'the oldest key was dropped to make room');
  assert.ok(window.retryAfterMs('c', 1) > 0);
});
