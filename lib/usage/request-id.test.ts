import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newRequestId } from './request-id.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('request ids are version-7 UUIDs carrying their millisecond', () => {
  const now = Date.UTC(2026, 10, 26, 4, 5, 6, 789);
  const id = newRequestId(now);
  assert.match(id, UUID_V7);
  assert.equal(parseInt(id.replace(/-/g, '').slice(0, 12), 16), now);
});

test('ids of later milliseconds sort after earlier ones, and ids never repeat', () => {
  const ids = Array.from({ length: 2000 }, (_, i) => newRequestId(1_800_000_000_000 + Math.floor(i / 10)));
  assert.equal(new Set(ids).size, ids.length);
  for (let i = 10; i < ids.length; i += 10)
    assert.ok(ids[i - 1] < ids[i], `${ids[i - 1]} should sort before ${ids[i]}`);
  for (const id of ids) assert.match(id, UUID_V7);
});
