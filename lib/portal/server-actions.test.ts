/**
 * A structural guard for the rule that makes the portal's access tests complete: every server action
 * is thin. It is built with portalAction (lib/portal/form-action.ts), which reads the form and
 * establishes the viewer from the session, and it leaves the decision to a service in lib/portal/ (or,
 * for binding messaging apps, lib/channels/, which stands above it), where the authorization matrices
 * (keys.test.ts, roles.test.ts, upgrades.test.ts, support.test.ts, portal-binding.test.ts) call every
 * operation as the wrong user and role. A new action that skips the wrapper, or decides on
 * its own, fails here.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../../test/support/test-server.ts';

/** Sign-up, sign-in and sign-out act before there is a viewer, by nature: their forms use publicAction. */
const PUBLIC_ACTION_FILES = new Set(['app/(auth)/actions.ts']);

/** Pages only staff (or only admins) reach: their actions must stop everyone else first. */
const ACCESS_BY_FOLDER: [string, string][] = [
  ['app/support/', 'staff'],
  ['app/admin/', 'admin'],
];

/** The modules an action file uses to be an action, rather than to decide anything. */
const NOT_SERVICES = 'viewer|action-result|access|form-action|form-input';

function serverActionFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) serverActionFiles(path, out);
    else if (/\.tsx?$/.test(entry.name) && /^'use server';/m.test(readFileSync(path, 'utf8')))
      out.push(relative(ROOT, path));
  }
  return out;
}

/** Each exported action's name, how it is built, and its source up to the next top-level statement. */
function exportedActions(source: string): { name: string; builtWith: string | null; body: string }[] {
  const starts = [...source.matchAll(/^export (?:const (\w+) = (\w+)\(|(?:async )?function (\w+))/gm)];
  return starts.map((match) => {
    const end = source
      .slice(match.index! + 1)
      .search(/^(?:export |function |const |async function |type |interface )/m);
    return {
      name: match[1] ?? match[3],
      builtWith: match[2] ?? null,
      body: end < 0 ? source.slice(match.index!) : source.slice(match.index!, match.index! + 1 + end),
    };
  });
}

const files = serverActionFiles(join(ROOT, 'app'));

test('the portal has server action files to check', () => {
  assert.ok(files.filter((f) => !PUBLIC_ACTION_FILES.has(f)).length >= 6, `found only ${files.join(', ')}`);
});

for (const file of files.filter((f) => !PUBLIC_ACTION_FILES.has(f) && f.endsWith('actions.ts'))) {
  test(`${file}: every action is a portalAction and leaves the decision to a lib/portal service`, () => {
    const source = readFileSync(join(ROOT, file), 'utf8');
    const services = [
      ...source.matchAll(
        new RegExp(
          `import \\{([^}]+)\\} from '@/lib/(?:portal|channels)/(?!(?:${NOT_SERVICES})\\.ts)[\\w-]+\\.ts'`,
          'g',
        ),
      ),
    ].flatMap((m) =>
      m[1]
        .split(',')
        .map((name) => name.replace(/^\s*type\s+/, '').trim())
        .filter(Boolean),
    );
    const actions = exportedActions(source);
    assert.ok(actions.length > 0, 'no exported actions found');
    for (const { name, builtWith, body } of actions) {
      assert.equal(
        builtWith,
        'portalAction',
        `${name} is not built with portalAction, so nothing makes it read the session`,
      );
      assert.ok(
        services.some((service) => new RegExp(`\\b${service}\\(`).test(body)),
        `${name} calls no lib/portal service (imports: ${services.join(', ')})`,
      );
    }
    const required = ACCESS_BY_FOLDER.find(([folder]) => file.startsWith(folder))?.[1];
    if (required) {
      const declared = [...source.matchAll(/access: '([\w-]+)'/g)].map((m) => m[1]);
      assert.ok(
        declared.length > 0 && declared.every((access) => access === required),
        `${file}: every action is for ${required} only (declared: ${declared.join(', ')})`,
      );
    }
  });
}

for (const file of PUBLIC_ACTION_FILES) {
  test(`${file}: every form action reads its form through publicAction`, () => {
    for (const { name, builtWith, body } of exportedActions(readFileSync(join(ROOT, file), 'utf8'))) {
      // Sign-out takes no form.
      if (builtWith === null)
        assert.match(
          body,
          new RegExp(`^export async function ${name}\\(\\)`),
          `${name} takes a form without publicAction`,
        );
      else assert.equal(builtWith, 'publicAction', name);
    }
  });
}
