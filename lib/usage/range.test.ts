/**
 * The usage range from ?range=: only 7, 30 and 90 are taken, anything else is 7; and where a quota day
 * begins, in zones east and west of UTC, off the hour and across a DST change; and where a trend starts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { laterDay, parseUsageRange, quotaDayStart, trendSince } from './range.ts';

test('?range= takes 7, 30 or 90; missing, repeated, malformed or other values give 7', () => {
  assert.equal(parseUsageRange('30'), 30);
  assert.equal(parseUsageRange('90'), 90);
  assert.equal(parseUsageRange('7'), 7);
  for (const raw of [
    undefined,
    null,
    '',
    '0',
    '31',
    '365',
    '-30',
    '30.0',
    ' 30',
    '3e1',
    '0x1e',
    'abc',
    ['30', '90'],
    30,
  ]) {
    assert.equal(parseUsageRange(raw), 7, JSON.stringify(raw));
  }
});

test('a quota day begins at local midnight of its time zone', () => {
  const cases: [string, string, string][] = [
    ['UTC', '2026-11-27', '2026-11-27T00:00:00.000Z'],
    ['America/New_York', '2026-11-27', '2026-11-27T05:00:00.000Z'],
    ['America/New_York', '2026-11-01', '2026-11-01T04:00:00.000Z'], // the DST change is at 02:00 local
    ['Asia/Kathmandu', '2026-11-27', '2026-11-26T18:15:00.000Z'],
    ['Pacific/Kiritimati', '2026-11-27', '2026-11-26T10:00:00.000Z'],
    ['Pacific/Pago_Pago', '2026-11-27', '2026-11-27T11:00:00.000Z'],
  ];
  for (const [zone, day, start] of cases) {
    assert.equal(new Date(quotaDayStart(zone, day)).toISOString(), start, `${day} in ${zone}`);
  }
});

const day = (d: string, calls = 0) => ({ day: d, successes: calls, failures: 0, rateLimited: 0 });

test('a trend is drawn from the day its allowance began, never hiding a day with calls', () => {
  const week = ['2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28'];
  const quiet = week.map((d) => day(d));
  const days = (trend: { day: string }[]) => trend.map((d) => d.day);
  assert.deepEqual(days(trendSince(quiet, '2026-11-28')), ['2026-11-28'], 'made today: one day, not seven');
  assert.deepEqual(days(trendSince(quiet, '2026-11-25')), week.slice(3), 'made three days ago');
  assert.deepEqual(days(trendSince(quiet, '2026-10-01')), week, 'older than the range: the whole range');
  assert.deepEqual(days(trendSince(quiet, '2026-11-22')), week, 'made on its first day');
  const seeded = quiet.map((d) => (d.day === '2026-11-24' ? day(d.day, 5) : d));
  assert.deepEqual(days(trendSince(seeded, '2026-11-27')), week.slice(2), 'calls before the start are kept');
  assert.deepEqual(days(trendSince(quiet, '2026-12-01')), ['2026-11-28'], 'a start after today shows today');
  assert.equal(laterDay('2026-11-01', '2026-11-28'), '2026-11-28');
  assert.equal(laterDay('2026-11-28', '2026-11-01'), '2026-11-28');
});
