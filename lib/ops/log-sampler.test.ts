/**
 * The log sampler: per source, the first lines of each window are written and the rest counted, and the
 * window's end writes one "N more suppressed" line, whether the source goes on (its next line) or falls
 * silent (the timer's sweep); sources are independent, and past the tracked maximum they share one window.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LogLevel } from '../config.ts';
import { createLogSampler, OTHER_SOURCES } from './log-sampler.ts';

function harness(options: { linesPerWindow?: number; maxSources?: number } = {}) {
  let clock = 1_000_000;
  const lines: { level: LogLevel; msg: string; fields?: Record<string, unknown> }[] = [];
  const sampler = createLogSampler({
    windowMs: 60_000,
    ...options,
    now: () => clock,
    write: (level, msg, fields) => lines.push({ level, msg, fields }),
  });
  return { sampler, lines, advance: (ms: number) => (clock += ms) };
}

test('a flood from one source writes its first lines, then one summary when the window ends', () => {
  const { sampler, lines, advance } = harness({ linesPerWindow: 3 });
  for (let i = 0; i < 1000; i++) sampler.log('key k1', 'info', 'mcp tools/call', { i });
  assert.deepEqual(
    lines.map((l) => l.fields?.i),
    [0, 1, 2],
  );
  sampler.closeEndedWindows();
  assert.equal(lines.length, 3, 'no summary before the window ends');

  advance(60_000);
  sampler.log('key k1', 'info', 'mcp tools/call', { i: 1000 });
  assert.deepEqual(lines[3], {
    level: 'info',
    msg: 'mcp tools/call: 997 more suppressed',
    fields: { source: 'key k1', suppressed: 997, windowSeconds: 60 },
  });
  assert.equal(lines[4].fields?.i, 1000, 'the next window starts with a written line');
  assert.equal(lines.length, 5);
});

test('a source that falls silent gets its summary from the sweep; a window with nothing suppressed writes none', () => {
  const { sampler, lines, advance } = harness({ linesPerWindow: 2 });
  for (let i = 0; i < 5; i++) sampler.log('telegram webhook: wrong secret', 'warn', 'telegram webhook refused');
  sampler.log('wechat POST: bad signature', 'warn', 'wechat request refused');
  advance(59_999);
  sampler.closeEndedWindows();
  assert.equal(lines.length, 3);
  advance(1);
  sampler.closeEndedWindows();
  assert.deepEqual(lines.slice(3), [
    {
      level: 'warn',
      msg: 'telegram webhook refused: 3 more suppressed',
      fields: { source: 'telegram webhook: wrong secret', suppressed: 3, windowSeconds: 60 },
    },
  ]);
  sampler.closeEndedWindows();
  assert.equal(lines.length, 4, 'each summary once');
});

test('sources are sampled apart; past the tracked maximum, new sources share one window', () => {
  const { sampler, lines, advance } = harness({ linesPerWindow: 1, maxSources: 2 });
  for (const source of ['a', 'b', 'a', 'b']) sampler.log(source, 'info', 'line', { source });
  assert.deepEqual(
    lines.map((l) => l.fields?.source),
    ['a', 'b'],
  );
  for (const source of ['c', 'd', 'e']) sampler.log(source, 'info', 'line', { source });
  assert.deepEqual(
    lines.map((l) => l.fields?.source),
    ['a', 'b', 'c'],
  );
  advance(60_000);
  sampler.closeEndedWindows();
  assert.deepEqual(
    lines.slice(3).map((l) => [l.fields?.source, l.fields?.suppressed]),
    [
      ['a', 1],
      ['b', 1],
      [OTHER_SOURCES, 2],
    ],
  );
});
