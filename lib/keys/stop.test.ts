import assert from 'node:assert/strict';
import { test } from 'node:test';
import { STOP_KINDS, stopCategory, stoppedKeyRefusal } from './stop.ts';

const AT = Date.parse('2026-11-28T11:00:00.000Z');

test('each kind of stop has its own sentence, with the moment; how it is counted follows the kind', () => {
  const sentences = new Set<string>();
  for (const category of [...STOP_KINDS, 'expired', 'disabled'] as const) {
    const { counted, message } = stoppedKeyRefusal(category, AT);
    assert.ok(message.startsWith('API key '), message);
    assert.ok(message.includes('2026-11-28T11:00:00.000Z'), message);
    assert.equal(counted, category === 'reissued' ? 'replaced' : category === 'expired' ? 'expired' : 'disabled');
    sentences.add(message);
  }
  assert.equal(sentences.size, STOP_KINDS.length + 2, 'no two kinds read alike');
});

test('a stored stopKind reads as its category; none, or one this version does not know, as plainly disabled', () => {
  for (const kind of STOP_KINDS) assert.equal(stopCategory(kind), kind);
  for (const stored of [null, '', 'frozen', 'LEAKED']) assert.equal(stopCategory(stored), 'disabled');
});
