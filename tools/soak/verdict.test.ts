/**
 * The soak's criteria (verdict.ts) and its reading of a server action's answer (support-changes.ts),
 * without a server: the 10-minute run itself is `npm run soak`, not part of `npm test`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KeySlot } from './mcp-load.ts';
import { planKeys } from './plan.ts';
import { actionResult } from './support-changes.ts';
import { judge, type KeyTally, quotaProblems, type RecordedUsage, type RssSample, rssCheck } from './verdict.ts';

function tally(overrides: Partial<KeyTally> = {}): KeyTally {
  return {
    keyIds: ['k1'],
    label: 'quota 1',
    quotas: [100],
    admitted: 100,
    refused: { rate_per_second: 7, daily_quota: 30 },
    unanswered: 0,
    quotaRefusedUnderFinalQuota: true,
    ...overrides,
  };
}
const recorded = (overrides: Partial<RecordedUsage> = {}): RecordedUsage => ({
  admitted: 100,
  rateLimited: 37,
  callLogAdmitted: 100,
  ...overrides,
});

test('a key that used exactly its quota, with every answer recorded once, has no quota problem', () => {
  assert.deepEqual(quotaProblems(tally(), recorded()), []);
  // A key that never reached its quota: fewer admitted calls are right.
  assert.deepEqual(
    quotaProblems(
      tally({ admitted: 40, refused: { rate_per_second: 3, daily_quota: 0 }, quotaRefusedUnderFinalQuota: false }),
      recorded({ admitted: 40, rateLimited: 3, callLogAdmitted: 40 }),
    ),
    [],
  );
});

test('an answered call missing from the usage tables, or recorded without an answer, is a mismatch', () => {
  assert.match(
    quotaProblems(tally(), recorded({ admitted: 99, callLogAdmitted: 99 })).join(),
    /100 calls answered 200, but the daily totals record 99/,
  );
  assert.match(
    quotaProblems(tally({ admitted: 99 }), recorded()).join(),
    /99 calls answered 200, but the daily totals record 100/,
  );
  assert.match(
    quotaProblems(tally(), recorded({ callLogAdmitted: 101 })).join(),
    /call log has 101 admitted calls, the daily totals 100/,
  );
  assert.match(
    quotaProblems(tally(), recorded({ rateLimited: 36 })).join(),
    /37 calls answered 429, but 36 are recorded/,
  );
});

test('a call without an answer may or may not be recorded, but no more calls than went unanswered', () => {
  const timedOut = tally({ admitted: 98, unanswered: 2, quotaRefusedUnderFinalQuota: false });
  for (const admitted of [98, 99, 100])
    assert.deepEqual(
      quotaProblems(timedOut, recorded({ admitted, callLogAdmitted: admitted })),
      [],
      `${admitted} recorded`,
    );
  assert.deepEqual(quotaProblems(timedOut, recorded({ rateLimited: 39 })), []);
  assert.match(
    quotaProblems(timedOut, recorded({ admitted: 97, callLogAdmitted: 97 })).join(),
    /98 calls answered 200 \(and 2 unanswered\), but the daily totals record 97/,
  );
  assert.match(
    quotaProblems(timedOut, recorded({ rateLimited: 40 })).join(),
    /37 calls answered 429 \(and 2 unanswered\), but 40 are recorded/,
  );
});

test('admitting beyond the quota, or refusing for the quota before it is used up, is a mismatch', () => {
  assert.match(
    quotaProblems(tally({ admitted: 101 }), recorded({ admitted: 101, callLogAdmitted: 101 })).join(),
    /101 calls admitted, beyond the daily quota of 100/,
  );
  assert.match(
    quotaProblems(tally({ admitted: 98 }), recorded({ admitted: 98, callLogAdmitted: 98 })).join(),
    /refused for its daily quota of 100 after 98 admitted calls/,
  );
});

test('after a quota raise, the highest quota bounds the key and the final one is what a refusal must have used up', () => {
  const raised = tally({ quotas: [100, 150], admitted: 150 });
  assert.deepEqual(quotaProblems(raised, recorded({ admitted: 150, callLogAdmitted: 150 })), []);
  assert.match(
    quotaProblems({ ...raised, admitted: 120 }, recorded({ admitted: 120, callLogAdmitted: 120 })).join(),
    /daily quota of 150 after 120/,
  );
});

test('a key with no usage rows at all is compared with zero', () => {
  assert.deepEqual(
    quotaProblems(
      tally({ admitted: 0, refused: { rate_per_second: 0, daily_quota: 0 }, quotaRefusedUnderFinalQuota: false }),
      undefined,
    ),
    [],
  );
  assert.match(
    quotaProblems(
      tally({ admitted: 3, refused: { rate_per_second: 0, daily_quota: 0 }, quotaRefusedUnderFinalQuota: false }),
      undefined,
    ).join(),
    /3 calls answered 200, but the daily totals record 0/,
  );
});

const flat = (mb: (i: number) => number, count = 20): RssSample[] =>
  Array.from({ length: count }, (_, i) => ({ atMs: i * 2000, rssMb: mb(i) }));

test('RSS is compared from the end of the warm-up, as medians of three readings', () => {
  // Warm-up (first 10 s) grows from 100 to 280 MB; after it the server holds near 300 MB with one spike.
  const samples = flat((i) => (i < 5 ? 100 + i * 45 : i === 12 ? 420 : 300 + (i % 3)));
  const check = rssCheck(samples, 10_000)!;
  assert.equal(check.afterWarmupMb, 301);
  assert.equal(check.endMb, 301);
  assert.equal(check.maxMb, 420);
  assert.equal(check.changePercent, 0);
  assert.equal(
    rssCheck(
      flat(() => 300, 8),
      10_000,
    ),
    null,
    'three readings after warm-up are too few',
  );
});

function verdictFor(rss: RssSample[], overrides: Partial<Parameters<typeof judge>[0]> = {}) {
  return judge({
    unexpected: [],
    tallies: [tally()],
    recorded: new Map([['k1', recorded()]]),
    rssSamples: rss,
    warmupMs: 0,
    ...overrides,
  });
}

test('the verdict passes only when all three criteria hold', () => {
  assert.equal(verdictFor(flat(() => 300)).pass, true);

  const growing = verdictFor(flat((i) => 300 + i * 5)); // medians 305 → 390 MB: +27.9%
  assert.equal(growing.pass, false);
  assert.deepEqual(
    growing.criteria.map((c) => c.pass),
    [true, true, false],
  );
  assert.match(growing.criteria[2].detail, /\+2\d\.\d%/);
  assert.equal(verdictFor(flat((i) => 300 + i * 3)).pass, true, 'medians 303 → 354 MB (+16.8%) are within 20%');

  const unexpected = verdictFor(
    flat(() => 300),
    { unexpected: [{ what: 'tools/call free 1', problem: 'HTTP 500' }] },
  );
  assert.deepEqual(
    unexpected.criteria.map((c) => c.pass),
    [false, true, true],
  );

  const mismatch = verdictFor(
    flat(() => 300),
    { recorded: new Map([['k1', recorded({ admitted: 101, callLogAdmitted: 101 })]]) },
  );
  assert.deepEqual(
    mismatch.criteria.map((c) => c.pass),
    [true, false, true],
  );
  assert.equal(mismatch.quotaMismatches.length, 3);

  // A soak where no key ran out of quota did not test the quota.
  const untested = verdictFor(
    flat(() => 300),
    { tallies: [tally({ quotaRefusedUnderFinalQuota: false })] },
  );
  assert.deepEqual(
    untested.criteria.map((c) => c.pass),
    [true, false, true],
  );

  assert.equal(verdictFor(flat(() => 300, 5)).pass, false, 'too short a run to judge memory');
});

test('a server action answer is read from the flight row that row 0 points at', () => {
  const flight =
    '0:{"a":"$@1","q":"","i":false,"b":"build"}\n1:{"ok":true,"id":"k2","display":"cf_1JMk…DXTP","secret":"cf_x"}\n';
  assert.deepEqual(actionResult(flight), { ok: true, id: 'k2', display: 'cf_1JMk…DXTP', secret: 'cf_x' });
  assert.deepEqual(actionResult('0:{"a":{"ok":false,"error":"No."},"b":"build"}\n'), { ok: false, error: 'No.' });
  assert.equal(actionResult('0:{"a":"$@2","b":"build"}\n1:{"ok":true}\n'), undefined);
});

test('a quota raise forgets the refusals under the old quota, and a reissue keeps the allowance and its tally', () => {
  const tallies = new Map<string, KeyTally>();
  const slot = new KeySlot(planKeys(5, 60)[0], 'a', 'cf_a', tallies);
  tallies.get('a')!.quotaRefusedUnderFinalQuota = true;
  slot.settingsChanged(2, 62);
  assert.deepEqual(
    { quotas: tallies.get('a')!.quotas, refused: tallies.get('a')!.quotaRefusedUnderFinalQuota },
    { quotas: [12, 62], refused: false },
  );
  slot.tally().admitted = 40;
  slot.tally().quotaRefusedUnderFinalQuota = true;
  slot.reissued('b', 'cf_b');
  assert.deepEqual({ id: slot.keyId, secret: slot.secret }, { id: 'b', secret: 'cf_b' });
  assert.equal(tallies.size, 1, 'a reissue is not a new allowance');
  assert.deepEqual(tallies.get('a'), {
    ...slot.tally(),
    keyIds: ['a', 'b'],
    quotas: [12, 62],
    admitted: 40,
    quotaRefusedUnderFinalQuota: true,
  });
});

test('a reissued allowance is judged on the usage of all its keys together: a successor does not get a fresh quota', () => {
  const reissued = tally({ keyIds: ['k1', 'k2', 'k3'] });
  const split = new Map([
    ['k1', recorded({ admitted: 60, rateLimited: 0, callLogAdmitted: 60 })],
    ['k2', recorded({ admitted: 0, rateLimited: 7, callLogAdmitted: 0 })],
    ['k3', recorded({ admitted: 40, rateLimited: 30, callLogAdmitted: 40 })],
  ]);
  assert.deepEqual(
    judge({ unexpected: [], tallies: [reissued], recorded: split, rssSamples: [], warmupMs: 0 }).quotaMismatches,
    [],
  );

  // The successor admitted a full quota of its own after its predecessor used up the allowance.
  const fresh = tally({ keyIds: ['k1', 'k2'], admitted: 200 });
  const mismatches = judge({
    unexpected: [],
    tallies: [fresh],
    rssSamples: [],
    warmupMs: 0,
    recorded: new Map([
      ['k1', recorded()],
      ['k2', recorded({ rateLimited: 0 })],
    ]),
  }).quotaMismatches;
  assert.deepEqual(
    mismatches.map((m) => m.keyIds),
    [
      ['k1', 'k2'],
      ['k1', 'k2'],
    ],
  );
  assert.match(
    mismatches.map((m) => m.problem).join(),
    /200 calls admitted, beyond the daily quota of 100.*refused for its daily quota of 100 after 200/,
  );
});
