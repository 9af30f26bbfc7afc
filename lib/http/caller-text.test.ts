import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keyWithBody } from '../keys/format.ts';
import { CALLER_TEXT_MAX, callerText, quoteCallerText } from './caller-text.ts';

const SECRET = keyWithBody('0123456789abcdefghijABCDEFGHIJkl');

test('short text passes through whole; long text is cut to the bound with a mark', () => {
  assert.equal(callerText('service_nope'), 'service_nope');
  const cut = callerText('x'.repeat(1_000_000));
  assert.equal(cut, `${'x'.repeat(CALLER_TEXT_MAX)}…`);
  assert.equal(callerText('abcdef', 3), 'abc…');
});

test('a secret is redacted wherever it sits, including across the cut', () => {
  for (const text of [
    SECRET,
    `tool ${SECRET}`,
    `${'y'.repeat(CALLER_TEXT_MAX - 20)}${SECRET}${'z'.repeat(100)}`,
    `${'y'.repeat(CALLER_TEXT_MAX - 5)}${SECRET}`,
  ]) {
    const shown = callerText(text);
    assert.ok(!shown.includes(SECRET.slice(3, 12)), `${JSON.stringify(text)} → ${shown}`);
    assert.ok(shown.length <= CALLER_TEXT_MAX + 20);
  }
});

test('quoted: control characters and quotes are escaped, and a cut never leaves half a surrogate pair', () => {
  assert.equal(quoteCallerText('a"b\u0000\r\n\u001b'), '"a\\"b\\u0000\\r\\n\\u001b"');
  const emoji = callerText(`${'a'.repeat(CALLER_TEXT_MAX - 1)}🧪🧪`);
  assert.equal(emoji, `${'a'.repeat(CALLER_TEXT_MAX - 1)}…`);
  assert.doesNotMatch(quoteCallerText(`${'a'.repeat(CALLER_TEXT_MAX - 1)}🧪🧪`), /\\ud8/);
});
