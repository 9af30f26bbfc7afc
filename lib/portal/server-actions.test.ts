/**
 * A structural guard for the rule that makes the portal's access tests complete: every server action
 * is thin. It establishes the viewer from the session (requireViewer / requireStaffViewer) and leaves
 * the decision to a service in lib/portal/, where the authorization matrices (keys.test.ts,
 * roles.test.ts, upgrades.test.ts, support.test.ts) call every operation as the wrong user and role. A
 * new action that skips the session, or decides on its own, fails here.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../../test/support/test-server.ts';

/** Sign-up, sign-in and sign-out act before there is a viewer, by nature. */
const PUBLIC_ACTION_FILES = new Set(['app/(auth)/actions.ts']);

function serverActionFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) serverActionFiles(path, out);
    else if (/\.tsx?$/.test(entry.name) && /^'use server';/m.test(readFileSync(path, 'utf8'))) out.push(relative(ROOT, path));
  }
  return out;
}

/** Each top-level function's name and source (exported or not), up to the next top-level declaration. */
function topLevelFunctions(source: string): { name: string; exported: boolean; body: string }[] {
  const starts = [...source.matchAll(/^(export )?(?:async )?function (\w+)/gm)];
  return starts.map((match) => {
    const end = source.slice(match.index! + 1).search(/^(export |function |const |async function )/m);
    return { name: match[2], exported: Boolean(match[1]), body: end < 0 ? source.slice(match.index!) : source.slice(match.index!, match.index! + 1 + end) };
  });
}

const files = serverActionFiles(join(ROOT, 'app'));

test('the portal has server action files to check', () => {
  assert.ok(files.filter((f) => !PUBLIC_ACTION_FILES.has(f)).length >= 6, `found only ${files.join(', ')}`);
});

for (const file of files.filter((f) => !PUBLIC_ACTION_FILES.has(f) && f.endsWith('actions.ts'))) {
  test(`${file}: every action requires a signed-in viewer and leaves the decision to a lib/portal service`, () => {
    const source = readFileSync(join(ROOT, file), 'utf8');
    const services = [...source.matchAll(/import \{([^}]+)\} from '@\/lib\/portal\/(?!viewer|action-result|access)[\w-]+\.ts'/g)]
      .flatMap((m) => m[1].split(',').map((name) => name.replace(/^\s*type\s+/, '').trim()).filter(Boolean));
    const functions = topLevelFunctions(source);
    const viewerPattern = /\brequire(Staff)?Viewer\(/;
    // A local helper that establishes the viewer (e.g. `staff(form)`) counts when an action calls it.
    const helpers = functions.filter((f) => !f.exported && viewerPattern.test(f.body)).map((f) => f.name);
    const actions = functions.filter((f) => f.exported);
    assert.ok(actions.length > 0, 'no exported actions found');
    for (const { name, body } of actions) {
      const establishes = viewerPattern.test(body) || helpers.some((helper) => new RegExp(`\\b${helper}\\(`).test(body));
      assert.ok(establishes, `${name} does not establish the viewer`);
      assert.ok(services.some((service) => new RegExp(`\\b${service}\\(`).test(body)), `${name} calls no lib/portal service (imports: ${services.join(', ')})`);
    }
  });
}
