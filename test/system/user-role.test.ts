/**
 * `user role` as an operator runs it: a child process per command against a scratch SQLite database,
 * judged by exit code, stdout and stderr, and by the audit row it leaves (read from the file itself).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { openSqliteFile } from '../../lib/db/sqlite-file.ts';
import { cliChecks } from '../support/cli-checks.ts';
import { isolatedEnv } from '../support/test-server.ts';

const { dataDir, env } = isolatedEnv();
after(() => rmSync(dataDir, { recursive: true, force: true }));

const PASSWORD = 'correct horse battery';
const { succeeds, fails: refused } = cliChecks(env);

/** A refusal; usage errors must also list this command in the usage they print. */
function fails(status: 1 | 2, message: RegExp, ...args: string[]): void {
  const stderr = refused(status, message, ...args);
  if (status === 2)
    assert.match(
      stderr,
      /user role --email E --role developer\|support\|admin/,
      'usage errors show the usage, which lists the command',
    );
}

function roleEvents(email: string) {
  const db = openSqliteFile(env.DATABASE_URL!);
  try {
    return db
      .prepare(`SELECT e.actorLabel, e.actorId, e.before, e.after FROM "AuditEvent" e JOIN "User" u ON u.id = e.targetUserId
      WHERE e.action = 'user.role' AND u.email = ? ORDER BY e.createdAt`)
      .all(email) as { actorLabel: string; actorId: string | null; before: string; after: string }[];
  } finally {
    db.close();
  }
}

describe('user role', () => {
  it('grants a role, says what it was, and writes a user.role audit event with before and after', () => {
    succeeds('user', 'create', '--email', 'ada@example.test', '--password', PASSWORD);
    assert.equal(
      succeeds('user', 'role', '--email', ' ADA@example.test ', '--role', 'support'),
      'ada@example.test is now support (was developer).\n',
    );
    const events = roleEvents('ada@example.test');
    assert.equal(events.length, 1);
    assert.deepEqual(
      [events[0].actorLabel, events[0].actorId, JSON.parse(events[0].before), JSON.parse(events[0].after)],
      ['cli', null, { role: 'developer' }, { role: 'support' }],
    );
  });

  it('refuses an unknown role, an unknown email and a no-op with exit 1 and a clear message', () => {
    fails(
      1,
      /Unknown role "wizard"; use one of developer, support, admin/,
      'user',
      'role',
      '--email',
      'ada@example.test',
      '--role',
      'wizard',
    );
    fails(
      1,
      /No user with email nobody@example\.test/,
      'user',
      'role',
      '--email',
      'nobody@example.test',
      '--role',
      'admin',
    );
    fails(1, /already has the support role/, 'user', 'role', '--email', 'ada@example.test', '--role', 'support');
  });

  it('needs both --email and --role (usage error, exit 2)', () => {
    fails(2, /user role needs --email and --role/, 'user', 'role', '--email', 'ada@example.test');
    fails(2, /user role needs --email and --role/, 'user', 'role', '--role', 'admin');
  });

  it('will not demote the last admin, and will once there is another', () => {
    succeeds('user', 'create', '--email', 'root@example.test', '--password', PASSWORD, '--role', 'admin');
    fails(
      1,
      /root@example\.test is the only admin; make another user admin first/,
      'user',
      'role',
      '--email',
      'root@example.test',
      '--role',
      'developer',
    );
    succeeds('user', 'role', '--email', 'ada@example.test', '--role', 'admin');
    assert.equal(
      succeeds('user', 'role', '--email', 'root@example.test', '--role', 'developer'),
      'root@example.test is now developer (was admin).\n',
    );
    assert.equal(roleEvents('root@example.test').length, 1, 'the refused demotion left no audit event');
  });
});
