import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createMemoryLimiter } from './memory-limiter.ts';
import { quotaDayCalculator } from './quota-day.ts';

const T0 = Date.UTC(2026, 10, 25, 12);

function limiter(usedBefore = 0) {
  const loads: string[] = [];
  const l = createMemoryLimiter({
    quotaDay: quotaDayCalculator('UTC'),
    usedOnDay: async (lineageId, day) => {
      loads.push(`${lineageId}@${day}`);
      await new Promise((r) => setTimeout(r, 5));
      return usedBefore;
    },
  });
  return { l, loads };
}

it('admits exactly min(N, Q) of N simultaneous calls, loading the day counter once', async () => {
  const { l, loads } = limiter(2);
  const key = { id: 'k', lineageId: 'k', dailyQuota: 10, ratePerSecond: 1000 };
  const results = await Promise.all(Array.from({ length: 30 }, () => l.admit(key, T0)));
  assert.equal(results.filter((r) => r.admitted).length, 8);
  assert.deepEqual(loads, ['k@2026-11-25']);
  assert.deepEqual(
    results
      .filter((r) => r.admitted)
      .map((r) => r.remaining)
      .sort((a, b) => a - b),
    [0, 1, 2, 3, 4, 5, 6, 7],
  );
  assert.ok(results.filter((r) => !r.admitted).every((r) => r.reason === 'quota' && r.remaining === 0));
});

it('allows R calls in any 1000 ms window, and a refusal consumes nothing', async () => {
  const { l } = limiter();
  const key = { id: 'k', lineageId: 'k', dailyQuota: 100, ratePerSecond: 2 };
  assert.equal((await l.admit(key, T0)).admitted, true);
  assert.equal((await l.admit(key, T0 + 400)).admitted, true);
  const refused = await l.admit(key, T0 + 999);
  assert.deepEqual([refused.admitted, refused.reason, refused.remaining, refused.retryAfter], [false, 'rate', 98, 1]);
  assert.equal(refused.resetAt, Math.ceil((T0 + 1000) / 1000));
  assert.equal((await l.admit(key, T0 + 1000)).admitted, true);
  assert.equal((await l.admit(key, T0 + 1001)).admitted, false);
  assert.equal((await l.admit(key, T0 + 1400)).admitted, true);
});

it('reports the daily reset for quota refusals and starts a fresh count the next day', async () => {
  const { l, loads } = limiter();
  const key = { id: 'k', lineageId: 'k', dailyQuota: 1, ratePerSecond: 10 };
  assert.equal((await l.admit(key, T0)).admitted, true);
  const refused = await l.admit(key, T0 + 5000);
  assert.equal(refused.reason, 'quota');
  assert.equal(refused.resetAt, Date.UTC(2026, 10, 26) / 1000);
  assert.equal(refused.retryAfter, (Date.UTC(2026, 10, 26) - T0 - 5000) / 1000);
  assert.equal((await l.admit(key, Date.UTC(2026, 10, 26, 0, 0, 1))).admitted, true);
  assert.deepEqual(loads, ['k@2026-11-25', 'k@2026-11-26']);
});

it('a lowered quota or rate (key changed by staff) applies on the next call', async () => {
  const { l } = limiter();
  assert.equal((await l.admit({ id: 'k', lineageId: 'k', dailyQuota: 5, ratePerSecond: 10 }, T0)).admitted, true);
  assert.equal((await l.admit({ id: 'k', lineageId: 'k', dailyQuota: 1, ratePerSecond: 10 }, T0 + 1)).admitted, false);
});

it('the keys of one lineage (a key and its reissued successors) share one day counter and one per-second window', async () => {
  const { l, loads } = limiter(3);
  const old = { id: 'k1', lineageId: 'L', dailyQuota: 5, ratePerSecond: 2 };
  const successor = { id: 'k2', lineageId: 'L', dailyQuota: 5, ratePerSecond: 2 };
  assert.equal((await l.admit(old, T0)).remaining, 1);
  // The successor continues the count and the window: no fresh quota, no second rate allowance.
  const first = await l.admit(successor, T0 + 10);
  assert.deepEqual([first.admitted, first.remaining], [true, 0]);
  const rated = await l.admit(successor, T0 + 20);
  assert.deepEqual([rated.admitted, rated.reason], [false, 'quota']);
  assert.deepEqual(
    [(await l.admit({ id: 'k3', lineageId: 'L', dailyQuota: 5, ratePerSecond: 2 }, T0 + 5000)).reason],
    ['quota'],
  );
  assert.deepEqual(loads, ['L@2026-11-25'], 'one load per lineage and day, not per key');
  // Another lineage is another allowance.
  assert.equal((await l.admit({ id: 'k9', lineageId: 'M', dailyQuota: 5, ratePerSecond: 2 }, T0 + 5000)).remaining, 1);
});

it('a successor with its own limits is held to them against the shared counters', async () => {
  const { l } = limiter();
  const old = { id: 'k1', lineageId: 'L', dailyQuota: 10, ratePerSecond: 5 };
  for (let i = 0; i < 4; i++) assert.equal((await l.admit(old, T0 + i)).admitted, true);
  // Staff lowered the successor's limits: its 2/s window already holds the predecessor's 4 calls.
  const successor = { id: 'k2', lineageId: 'L', dailyQuota: 6, ratePerSecond: 2 };
  const rated = await l.admit(successor, T0 + 10);
  assert.deepEqual([rated.admitted, rated.reason, rated.limit, rated.remaining], [false, 'rate', 6, 2]);
  const admitted = await l.admit(successor, T0 + 1500);
  assert.deepEqual([admitted.admitted, admitted.limit, admitted.remaining], [true, 6, 1]);
});
