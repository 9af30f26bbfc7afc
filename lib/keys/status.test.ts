import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KEY_STATUSES, keyStatus } from './status.ts';

const now = Date.parse('2026-11-27T12:00:00Z');
const before = new Date(now - 1000);
const after = new Date(now + 1000);
const key = { disabledAt: null, stopKind: null, expiresAt: null, replacedById: null };

test('every key state reads as one word of the vocabulary, from how it stopped, never from the reason', () => {
  const cases: [string, Parameters<typeof keyStatus>[0], (typeof KEY_STATUSES)[number]][] = [
    ['a working key', key, 'active'],
    ['a key expiring later', { ...key, expiresAt: after }, 'active'],
    ['a key past its expiry', { ...key, expiresAt: before }, 'expired'],
    ['a key its owner turned off', { ...key, disabledAt: before, stopKind: 'owner' }, 'disabled'],
    ['a key support turned off', { ...key, disabledAt: before, stopKind: 'support' }, 'disabled'],
    ['a key the operator turned off', { ...key, disabledAt: before, stopKind: 'operator' }, 'disabled'],
    ['a key turned off with no kind recorded', { ...key, disabledAt: before }, 'disabled'],
    ['a key turned off because it leaked', { ...key, disabledAt: before, stopKind: 'leaked' }, 'leaked'],
    ['a reissued key in its grace period', { ...key, replacedById: 'k2', disabledAt: after }, 'replaced'],
    [
      'a reissued key after its grace period',
      { ...key, replacedById: 'k2', disabledAt: before, stopKind: 'reissued' },
      'replaced',
    ],
    [
      'a reissued key whose old secret leaked',
      { ...key, replacedById: 'k2', disabledAt: before, stopKind: 'leaked' },
      'replaced',
    ],
    ['a disabled key that has also expired', { ...key, disabledAt: before, expiresAt: before }, 'disabled'],
  ];
  for (const [what, state, expected] of cases) assert.equal(keyStatus(state, now), expected, what);
  assert.deepEqual(new Set(cases.map((c) => c[2])), new Set(KEY_STATUSES), 'every status is reachable');
});
