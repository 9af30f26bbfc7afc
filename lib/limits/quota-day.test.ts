import assert from 'node:assert/strict';
import { it } from 'node:test';
import { quotaDayCalculator } from './quota-day.ts';

it('UTC days reset at 00:00 UTC', () => {
  const day = quotaDayCalculator('UTC');
  const t = Date.UTC(2026, 10, 25, 22, 30);
  assert.deepEqual(day(t), { day: '2026-11-25', resetsAt: Date.UTC(2026, 10, 26) });
  assert.equal(day(Date.UTC(2026, 10, 26)).day, '2026-11-26');
  assert.equal(day(Date.UTC(2026, 10, 26) - 1).day, '2026-11-25');
});

it('other zones reset at their local midnight, including quarter-hour offsets and DST days', () => {
  const shanghai = quotaDayCalculator('Asia/Shanghai');
  assert.deepEqual(shanghai(Date.UTC(2026, 10, 25, 17)), { day: '2026-11-26', resetsAt: Date.UTC(2026, 10, 26, 16) });
  const kathmandu = quotaDayCalculator('Asia/Kathmandu'); // UTC+05:45
  assert.equal(kathmandu(Date.UTC(2026, 0, 1, 12)).resetsAt, Date.UTC(2026, 0, 1, 18, 15));
  const berlin = quotaDayCalculator('Europe/Berlin'); // 2026-03-29 has 23 hours
  assert.equal(berlin(Date.UTC(2026, 2, 29, 12)).resetsAt, Date.UTC(2026, 2, 29, 22));
});

it('does not reuse a cached day for an earlier instant', () => {
  const day = quotaDayCalculator('UTC');
  assert.equal(day(Date.UTC(2026, 10, 25, 12)).day, '2026-11-25');
  assert.equal(day(Date.UTC(2026, 10, 24, 23)).day, '2026-11-24');
});
