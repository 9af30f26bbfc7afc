import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KEY_STATUSES, keyStatus, LEAK_REASON_PREFIX, OWNER_LEAK_REASON } from './status.ts';

const now = Date.parse('2026-11-27T12:00:00Z');
const before = new Date(now - 1000);
const after = new Date(now + 1000);
const key = { disabledAt: null, disabledReason: null, expiresAt: null, replacedById: null };

test('every key state reads as one word of the vocabulary', () => {
  const cases: [string, Parameters<typeof keyStatus>[0], (typeof KEY_STATUSES)[number]][] = [
    ['a working key', key, 'active'],
    ['a key expiring later', { ...key, expiresAt: after }, 'active'],
    ['a key past its expiry', { ...key, expiresAt: before }, 'expired'],
    ['a key turned off', { ...key, disabledAt: before, disabledReason: 'disabled by owner' }, 'disabled'],
    ['a key the owner reported leaked', { ...key, disabledAt: before, disabledReason: OWNER_LEAK_REASON }, 'leaked'],
    [
      'a key a leak report disabled',
      { ...key, disabledAt: before, disabledReason: `${LEAK_REASON_PREFIX}public report` },
      'leaked',
    ],
    ['a reissued key in its grace period', { ...key, replacedById: 'k2', disabledAt: after }, 'replaced'],
    ['a reissued key after its grace period', { ...key, replacedById: 'k2', disabledAt: before }, 'replaced'],
    [
      'a reissued key whose old secret leaked',
      { ...key, replacedById: 'k2', disabledAt: before, disabledReason: OWNER_LEAK_REASON },
      'replaced',
    ],
    ['a disabled key that has also expired', { ...key, disabledAt: before, expiresAt: before }, 'disabled'],
  ];
  for (const [what, state, expected] of cases) assert.equal(keyStatus(state, now), expected, what);
  assert.deepEqual(new Set(cases.map((c) => c[2])), new Set(KEY_STATUSES), 'every status is reachable');
});
