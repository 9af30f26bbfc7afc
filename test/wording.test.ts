/**
 * The repository stands on its own and speaks of the product only:
 * - no tracked code names a path above the repository's root (a relative path that climbs out of it, or one
 *   joined onto the project root that starts with ".."): the product reads its data from inside the checkout;
 * - no tracked text cites the number a piece of work was planned under: comments and docs say what the code
 *   does and why, and a test says what it checks.
 * Applied migrations (checksummed) and the verbatim third-party data are left as they are.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');
const LEFT_AS_THEY_ARE = ['prisma/migrations/', 'lib/chem/data/third-party/'];
/** Files whose relative paths are code paths (documents link to the interface spec beside the checkout). */
const CODE = /\.(?:[cm]?[jt]sx?)$|(?:^|\/)(?:Dockerfile|run)$|\.ya?ml$/;

/** A planning reference: "issue" or "ticket" followed by a number, never the verb ("issue a key", "reissue 2"). */
const PLANNING_NUMBER = /\b(?:issues?|tickets?)\s*(?:#\s*)?\d/i;
/**
 * A quoted relative path on a line that opens, imports or builds a path from it (not, say, a traversal
 * attempt a test sends over HTTP), and a path joined onto the project root that starts by going up.
 */
const RELATIVE_PATH = /(['"`])(\.\.\/[^'"`\s$]*)\1/g;
const PATH_USE = /\b(?:join|resolve|URL|readFileSync|readdirSync|existsSync|statSync|import)\s*\(|\bfrom\s+['"]/;
const UP_FROM_ROOT = /\b(?:PROJECT_ROOT|ROOT)\s*,\s*['"`]\.\./;

/** Each line of `text` (the tracked file `file`) that breaks a rule, as "line: what: the line". */
function findings(file: string, text: string): string[] {
  const outside = (path: string) => relative(ROOT, resolve(ROOT, dirname(file), path)).startsWith('..');
  return text.split('\n').flatMap((line, i) => {
    const what: string[] = [];
    if (PLANNING_NUMBER.test(line)) what.push('a planning number');
    if (CODE.test(file)) {
      const climbs = PATH_USE.test(line) && [...line.matchAll(RELATIVE_PATH)].some((m) => outside(m[2]));
      if (climbs || UP_FROM_ROOT.test(line)) what.push('a path outside the repository');
    }
    return what.map((w) => `${i + 1}: ${w}: ${line.trim()}`);
  });
}

const kinds = (found: string[]) => found.map((f) => f.split(':').slice(0, 2).join(':'));

test('the matcher finds paths that leave the repository and planning numbers, not the verb "issue"', () => {
  const code = [
    "const DIR = join(PROJECT_ROOT, '../elsewhere/nasa');",
    "const FILE = new URL('../../../elsewhere/data.xml', import.meta.url);",
    "import { R } from '../constants.ts';",
    "const DATA = join(PROJECT_ROOT, 'lib/chem/data');",
    "const FILE = new URL('../../test/support/x.ts', import.meta.url);",
    "const attempts = ['../../../../etc/passwd'];",
  ];
  assert.deepEqual(kinds(findings('lib/chem/example.ts', code.join('\n'))), [
    '1: a path outside the repository',
    '2: a path outside the repository',
  ]);
  const references = ['issue', 'Issue #', 'issues', 'ticket'].map((word) => `// As asked in ${word} 12.`);
  assert.deepEqual(
    kinds(findings('docs/example.md', references.join('\n'))),
    references.map((_, i) => `${i + 1}: a planning number`),
  );
  const fine = [
    'Support can issue a key with 3 days of grace.',
    'The CLI issues keys; `key reissue 2` rolls one.',
    'parsed.error.issues[0]?.path',
    'Write the reason (the ticket number) and confirm: ticket SUP-42.',
    'See [the spec](../shared/spec/service-interface.md).',
  ];
  assert.deepEqual(findings('docs/example.md', fine.join('\n')), []);
});

test('no tracked file names a path outside the repository in code, or a planning number anywhere', () => {
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
    // This file's own examples are what its first test checks.
    if (file === 'test/wording.test.ts') continue;
    for (const finding of findings(file, bytes.toString('utf8'))) found.push(`${file}:${finding}`);
  }
  assert.ok(read > 500, `only ${read} text files read`);
  assert.deepEqual(found, []);
});
