/**
 * The usage range from ?range=: only 7, 30 and 90 are taken, anything else is 7; and where a quota day
 * begins, in zones east and west of UTC, off the hour and across a DST change.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseUsageRange, quotaDayStart } from './range.ts';

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
