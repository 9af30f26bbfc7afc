/**
 * The repository speaks of the product only: no tracked text names a steering folder, a data folder
 * outside the checkout, or the issue and ticket numbers work was planned under. Comments and docs say
 * what the code does and why, and a test says what it checks. Applied migrations (checksummed) and the
 * verbatim third-party data are left as they are, and so is this file, which holds the patterns.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');
const LEFT_AS_THEY_ARE = ['prisma/migrations/', 'lib/chem/data/third-party/', 'test/wording.test.ts'];

const FORBIDDEN: readonly { what: string; pattern: RegExp }[] = [
  { what: 'a steering folder', pattern: /steering/i },
  { what: 'data outside the checkout', pattern: /shared\/data/ },
  // "issue 18", "issue #18", "issues 12–14", "Ticket 7"; not "issue a key", "issues keys" or "reissue 2".
  { what: 'an issue or ticket number', pattern: /\b(?:issues?|tickets?)\s*(?:#\s*)?\d/i },
];

/** The forbidden mentions in a text, as "line: what: the line". */
function forbiddenMentions(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      FORBIDDEN.filter(({ pattern }) => pattern.test(line)).map(({ what }) => `${i + 1}: ${what}: ${line.trim()}`),
    );
}

test('the matcher finds each kind of mention, and not the verb "issue"', () => {
  const planted = [
    'Read from the steering repo.',
    "const DIR = '../shared/data/nasa';",
    '// The vector of issue 3.',
    'Since Issue #18 the doors are open.',
    'See issues 12–14.',
    'owner asked (ticket 7)',
  ];
  assert.deepEqual(
    forbiddenMentions(planted.join('\n')).map((m) => m.split(':').slice(0, 2).join(':')),
    [
      '1: a steering folder',
      '2: data outside the checkout',
      '3: an issue or ticket number',
      '4: an issue or ticket number',
      '5: an issue or ticket number',
      '6: an issue or ticket number',
    ],
  );
  const fine = [
    'Support can issue a key with 3 days of grace.',
    'The CLI issues keys; `key reissue 2` rolls one.',
    'parsed.error.issues[0]?.path',
    'Write the reason (the ticket number) and confirm: ticket SUP-42.',
    'See [the spec](../shared/spec/service-interface.md).',
  ];
  assert.deepEqual(forbiddenMentions(fine.join('\n')), []);
});

test('no tracked text file mentions a steering folder, ../shared/data or an issue or ticket number', () => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file && !LEFT_AS_THEY_ARE.some((prefix) => file.startsWith(prefix)));
  const found: string[] = [];
  let read = 0;
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(ROOT, file));
    } catch {
      continue; // deleted in the work tree, not yet in the index
    }
    if (bytes.subarray(0, 8000).includes(0)) continue; // binary
    read++;
    for (const mention of forbiddenMentions(bytes.toString('utf8'))) found.push(`${file}:${mention}`);
  }
  assert.ok(read > 500, `only ${read} text files read`);
  assert.deepEqual(found, []);
});
