/**
 * The operator CLI as an operator sees it, against a scratch SQLite database, judged only by exit code,
 * stdout and stderr: run in this process (test/support/cli-in-process.ts), and as the binary at the end.
 * No server is needed (every command migrates the database first). Usage rows for `key show` are written by the production hot-path writer, the
 * same code that records calls behind /mcp.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import type { CallRow } from '../../lib/db/hot-path.ts';
import { openSqliteHotPath } from '../../lib/db/hot-path-sqlite.ts';
import { openSqliteFile } from '../../lib/db/sqlite-file.ts';
import { keyFormatProblem } from '../../lib/keys/format.ts';
import { quotaDayCalculator } from '../../lib/limits/quota-day.ts';
import type { KeyReport } from '../../lib/usage/key-report.ts';
import { cliChecks } from '../support/cli-checks.ts';
import { isolatedEnv, runCliBinary } from '../support/test-server.ts';

const { dataDir, env } = isolatedEnv({ QUOTA_TIMEZONE: 'UTC' });
after(() => rmSync(dataDir, { recursive: true, force: true }));

const OWNER = 'ada@example.test';
const PASSWORD = 'correct horse battery';
const KEY_JSON_FIELDS = ['dailyQuota', 'expiresAt', 'id', 'key', 'rps', 'start', 'tier'];
const { succeeds, fails } = cliChecks(env);

interface CreatedKey {
  id: string;
  key: string;
  start: string;
  tier: string;
  dailyQuota: number;
  rps: number;
  expiresAt: string | null;
}

function createKey(...options: string[]): CreatedKey {
  return JSON.parse(succeeds('key', 'create', '--owner', OWNER, '--json', ...options));
}

function show(reference: string): KeyReport {
  return JSON.parse(succeeds('key', 'show', reference, '--json'));
}

describe('user create', () => {
  it('creates a user, normalising the email, and says so', () => {
    assert.match(
      succeeds('user', 'create', '--email', ' Ada@Example.TEST ', '--password', PASSWORD),
      /^Created developer ada@example\.test \(id \w+\)\.\n$/,
    );
    assert.match(
      succeeds('user', 'create', '--email', 'staff@example.test', '--password', PASSWORD, '--role', 'support'),
      /^Created support staff@example\.test/,
    );
  });

  it('refuses a second user with the same email (in any case) with exit 1', () => {
    fails(1, /already exists/, 'user', 'create', '--email', 'ADA@example.test', '--password', PASSWORD);
  });

  it('refuses a bad role, a short password and a bad email with a clear message', () => {
    fails(
      1,
      /Unknown role "wizard"; use one of developer, support, admin/,
      'user',
      'create',
      '--email',
      'bob@example.test',
      '--password',
      PASSWORD,
      '--role',
      'wizard',
    );
    fails(1, /at least 10 characters/, 'user', 'create', '--email', 'bob@example.test', '--password', 'short');
    fails(
      1,
      /"bob-at-example" is not an email address/,
      'user',
      'create',
      '--email',
      'bob-at-example',
      '--password',
      PASSWORD,
    );
    fails(2, /needs --email and --password/, 'user', 'create', '--email', 'bob@example.test');
  });
});

describe('key create', () => {
  it('--json prints exactly id, key, start, tier, dailyQuota, rps, expiresAt with a valid secret and its display form', () => {
    const created = createKey();
    assert.deepEqual(Object.keys(created).sort(), KEY_JSON_FIELDS);
    assert.match(created.key, /^cf_[0-9A-Za-z]{38}$/);
    assert.equal(keyFormatProblem(created.key), null, 'the checksum is right');
    assert.equal(created.start, `cf_${created.key.slice(3, 7)}…${created.key.slice(-4)}`);
    assert.deepEqual(
      { tier: created.tier, dailyQuota: created.dailyQuota, rps: created.rps, expiresAt: created.expiresAt },
      { tier: 'free', dailyQuota: 1000, rps: 1, expiresAt: null },
    );
  });

  it('without --json prints the secret once, in a sentence that says to store it', () => {
    const out = succeeds('key', 'create', '--owner', OWNER, '--name', 'laptop');
    assert.match(out, /Created key \w+ "laptop" for ada@example\.test: free, 1000 calls\/day, 1\/s, expires never\./);
    assert.equal(out.match(/cf_[0-9A-Za-z]{38}/g)?.length, 1);
  });

  it('--tier pro gives 100000 calls/day; --daily-quota and --rps override the tier', () => {
    assert.equal(createKey('--tier', 'pro').dailyQuota, 100_000);
    const custom = createKey('--tier', 'pro', '--daily-quota', '5', '--rps', '7');
    assert.deepEqual([custom.tier, custom.dailyQuota, custom.rps], ['pro', 5, 7]);
    fails(1, /Unknown tier "gold"/, 'key', 'create', '--owner', OWNER, '--tier', 'gold');
    fails(2, /--daily-quota must be a whole number/, 'key', 'create', '--owner', OWNER, '--daily-quota', '0');
    fails(2, /--rps must be a whole number/, 'key', 'create', '--owner', OWNER, '--rps', '1.5');
  });

  it('--expires-in 30d and --expires ISO set the expiry', () => {
    const before = Date.now();
    const in30Days = createKey('--expires-in', '30d');
    const after = Date.now();
    const expiresAt = Date.parse(in30Days.expiresAt!);
    const thirtyDays = 30 * 86_400_000;
    assert.ok(expiresAt >= before + thirtyDays && expiresAt <= after + thirtyDays, in30Days.expiresAt!);
    assert.equal(createKey('--expires', '2031-02-03T04:05:06Z').expiresAt, '2031-02-03T04:05:06.000Z');
  });

  it('a past date, a bad format, or both expiry flags are usage errors (exit 2)', () => {
    fails(2, /in the past/, 'key', 'create', '--owner', OWNER, '--expires', '2001-01-01T00:00:00Z');
    fails(2, /--expires must be an ISO 8601 date/, 'key', 'create', '--owner', OWNER, '--expires', 'next tuesday');
    fails(2, /--expires-in must look like 30d/, 'key', 'create', '--owner', OWNER, '--expires-in', '30x');
    fails(
      2,
      /either --expires-in or --expires, not both/,
      'key',
      'create',
      '--owner',
      OWNER,
      '--expires-in',
      '30d',
      '--expires',
      '2031-01-01T00:00:00Z',
    );
  });

  it('an unknown owner is refused with exit 1 and a message naming the email', () => {
    fails(1, /No user with email nobody@example\.test/, 'key', 'create', '--owner', 'nobody@example.test');
    fails(2, /needs --owner/, 'key', 'create');
  });
});

describe('key disable', () => {
  const references: [string, (k: CreatedKey) => string][] = [
    ['its id', (k) => k.id],
    ['the full secret', (k) => k.key],
    ['the display form cf_abcd…wxyz', (k) => k.start],
    ['its first 4 characters', (k) => k.key.slice(3, 7)],
  ];
  for (const [name, reference] of references) {
    it(`disables a key found by ${name}, keeping the reason`, () => {
      const created = createKey();
      assert.match(
        succeeds('key', 'disable', reference(created), '--reason', `found by ${name}`),
        new RegExp(`Disabled key ${created.id}`),
      );
      const report = show(created.id);
      assert.equal(report.status, 'disabled');
      assert.equal(report.disabledReason, `found by ${name}`);
      assert.ok(report.disabledAt);
    });
  }

  it('needs --reason (exit 2); an already disabled key or an unknown one is refused with exit 1', () => {
    const created = createKey();
    fails(2, /needs --reason/, 'key', 'disable', created.id);
    fails(2, /needs --reason/, 'key', 'disable', created.id, '--reason', '   ');
    assert.equal(show(created.id).status, 'active');
    succeeds('key', 'disable', created.id, '--reason', 'leaked');
    fails(1, /already disabled/, 'key', 'disable', created.id, '--reason', 'leaked again');
    fails(1, /No key matches "no-such-key"/, 'key', 'disable', 'no-such-key', '--reason', 'x');
  });
});

describe('key reissue', () => {
  it('--json gives a new secret with the same settings; the old key is disabled and points at it', () => {
    const old = createKey('--tier', 'pro', '--daily-quota', '42', '--rps', '3', '--expires', '2031-02-03T04:05:06Z');
    const next = JSON.parse(succeeds('key', 'reissue', old.id, '--json'));
    assert.notEqual(next.id, old.id);
    assert.notEqual(next.key, old.key);
    assert.equal(keyFormatProblem(next.key), null);
    assert.deepEqual(
      {
        tier: next.tier,
        dailyQuota: next.dailyQuota,
        rps: next.rps,
        expiresAt: next.expiresAt,
        replaces: next.replaces,
      },
      { tier: 'pro', dailyQuota: 42, rps: 3, expiresAt: '2031-02-03T04:05:06.000Z', replaces: old.id },
    );
    const replaced = show(old.id);
    assert.equal(replaced.status, 'replaced');
    assert.equal(replaced.replacedById, next.id);
    assert.equal(show(next.key).status, 'active');
    fails(1, /already reissued/, 'key', 'reissue', old.id);
  });
});

describe('key show', () => {
  // Usage for one key: today two tools with successes, a failure and rate-limited calls; 2 days ago 4 calls.
  function recordUsage(keyId: string) {
    const now = Date.now();
    const { day: today } = quotaDayCalculator('UTC')(now);
    const twoDaysAgo = new Date(Date.parse(`${today}T00:00:00Z`) - 2 * 86_400_000).toISOString().slice(0, 10);
    const rows: CallRow[] = [];
    const add = (
      count: number,
      tool: string,
      outcome: CallRow['outcome'],
      day: string,
      errorCode: string | null = null,
    ) => {
      for (let i = 0; i < count; i++) {
        // Distinct times so "the last 10" is one well-defined set.
        const createdAt = (day === today ? now : now - 2 * 86_400_000) - rows.length * 1000;
        rows.push({
          requestId: `${keyId}-${rows.length}`,
          keyId,
          tool,
          outcome,
          errorCode,
          latencyMs: 1.5 + rows.length,
          createdAt,
          day,
        });
      }
    };
    add(3, 'service_query_compound', 'success', today);
    add(1, 'service_query_compound', 'failure', today, 'compound_not_found');
    add(7, 'service_vapor_pressure', 'success', today);
    add(2, 'service_vapor_pressure', 'rate_limited', today, 'rate_limit_exceeded');
    add(4, 'service_query_compound', 'success', twoDaysAgo);
    const store = openSqliteHotPath(openSqliteFile(env.DATABASE_URL!));
    return store
      .writeCalls(rows)
      .finally(() => store.close())
      .then(() => ({ rows, today, twoDaysAgo }));
  }

  it('--json shows tier, quota, expiry, today per tool, a 7-day trend and the last 10 calls', async () => {
    const created = createKey('--daily-quota', '50', '--rps', '4', '--expires', '2031-02-03T04:05:06Z');
    const { rows, today, twoDaysAgo } = await recordUsage(created.id);
    const report = show(created.key);
    assert.equal(report.id, created.id);
    assert.deepEqual(
      [report.tier, report.dailyQuota, report.ratePerSecond, report.expiresAt, report.status, report.display],
      ['free', 50, 4, '2031-02-03T04:05:06.000Z', 'active', created.start],
    );
    assert.deepEqual(report.today, [
      { tool: 'service_query_compound', successes: 3, failures: 1, rateLimited: 0 },
      { tool: 'service_vapor_pressure', successes: 7, failures: 0, rateLimited: 2 },
    ]);
    assert.equal(report.usedToday, 11, 'rate-limited calls consume no quota');
    assert.equal(report.remainingToday, 39);
    assert.equal(report.trend.length, 7);
    assert.equal(report.trend[6].day, today);
    assert.deepEqual(report.trend[6], { day: today, successes: 10, failures: 1, rateLimited: 2 });
    assert.deepEqual(report.trend[4], { day: twoDaysAgo, successes: 4, failures: 0, rateLimited: 0 });
    assert.equal(report.trend.filter((d) => d.successes + d.failures + d.rateLimited > 0).length, 2);
    const newestTen = [...rows].sort((a, b) => b.createdAt - a.createdAt).slice(0, 10);
    assert.deepEqual(
      report.lastCalls.map((c) => c.requestId),
      newestTen.map((r) => r.requestId),
    );
    assert.deepEqual(report.lastCalls[0], {
      requestId: `${created.id}-0`,
      tool: 'service_query_compound',
      outcome: 'success',
      errorCode: null,
      latencyMs: 1.5,
      createdAt: new Date(rows[0].createdAt).toISOString(),
      otherKey: null,
    });
    assert.equal(report.lastCalls.find((c) => c.requestId === `${created.id}-3`)?.errorCode, 'compound_not_found');
  });

  it('prints the same report for people', async () => {
    const created = createKey('--name', 'readable', '--expires', '2031-02-03T04:05:06Z');
    const { today } = await recordUsage(created.id);
    const out = succeeds('key', 'show', created.start);
    assert.match(out, new RegExp(`^Key ${created.id} "readable" \\(${created.start}\\), owner ${OWNER}`));
    assert.match(out, /Status: +active/);
    assert.match(out, /Tier: +free: 1000 calls\/day, 1 calls\/s/);
    assert.match(out, /Today: +11 used, 989 left/);
    assert.match(out, /Expires: +2031-02-03T04:05:06\.000Z/);
    assert.match(out, /service_query_compound: 3 \/ 1 \/ 0\n\s+service_vapor_pressure: 7 \/ 0 \/ 2/);
    assert.match(out, new RegExp(`${today}: 10 / 1 / 2`));
    const trend = out.split('Last 7 days')[1].split('Last 10 calls')[0];
    assert.equal(trend.match(/\d{4}-\d{2}-\d{2}: /g)?.length, 7);
    const calls = out.split('Last 10 calls:\n')[1].split('  Refused:')[0].trim().split('\n');
    assert.equal(calls.length, 10);
    assert.match(calls[0], /service_query_compound +success +1\.5 ms/);
    assert.match(out, /Refused: +0 calls with a secret that no longer works, 0 today$/m);
  });

  it('an unknown reference is refused with exit 1', () => {
    fails(1, /No key matches/, 'key', 'show', 'zzzz-not-a-key');
  });
});

describe('oauth-client', () => {
  const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

  function add(...options: string[]): { id: string; out: string } {
    const out = succeeds('oauth-client', 'add', ...options);
    const id = out.match(new RegExp(`^Client id: (${UUID})$`, 'm'))?.[1];
    assert.ok(id, out);
    return { id, out };
  }

  it('add registers a public desktop client with a custom-scheme redirect URI, printing its id and no secret', () => {
    const { out } = add('--name', 'ChemDesk', '--redirect-uri', 'chemdesk://oauth/callback');
    assert.match(
      out,
      /^Added OAuth client "ChemDesk" \(public, PKCE without a secret\); redirect URIs: chemdesk:\/\/oauth\/callback\.\n/,
    );
    assert.doesNotMatch(out, /secret \(shown once/i);
    assert.doesNotMatch(out, /cfcs_/);
  });

  it('add --confidential prints the secret once, in a sentence that says to store it', () => {
    const { out } = add(
      '--name',
      'Lab notebook',
      '--redirect-uri',
      'https://notebook.example/oauth/callback',
      '--redirect-uri',
      'http://127.0.0.1/callback',
      '--logo-uri',
      'https://notebook.example/logo.png',
      '--client-uri',
      'https://notebook.example/',
      '--confidential',
    );
    assert.match(out, /\(confidential, authenticates with HTTP Basic \(client_secret_basic\)\)/);
    assert.match(out, /redirect URIs: https:\/\/notebook\.example\/oauth\/callback, http:\/\/127\.0\.0\.1\/callback\./);
    assert.match(out, /^Client secret \(shown once, store it now; only its HMAC is kept\): cfcs_[A-Za-z0-9_-]{43}$/m);
    assert.equal(out.match(/cfcs_/g)?.length, 1);
  });

  it('add refuses unsafe redirect URIs with every problem, and a missing --name or --redirect-uri (exit 2)', () => {
    const refused = fails(
      2,
      /The client was not added: .*"javascript:alert\(1\)" uses the javascript: scheme, which is never a redirect/,
      'oauth-client',
      'add',
      '--name',
      'Bad',
      '--redirect-uri',
      'javascript:alert(1)',
      '--redirect-uri',
      'chemdesk://cb#token',
    );
    assert.match(refused, /"chemdesk:\/\/cb#token" has a fragment/);
    fails(
      2,
      /needs --name .* and at least one --redirect-uri/,
      'oauth-client',
      'add',
      '--redirect-uri',
      'chemdesk://cb',
    );
    fails(
      2,
      /needs --name .* and at least one --redirect-uri/,
      'oauth-client',
      'add',
      '--name',
      '  ',
      '--redirect-uri',
      'x://y',
    );
    fails(2, /needs --name .* and at least one --redirect-uri/, 'oauth-client', 'add', '--name', 'No URI');
    fails(
      2,
      /logo_uri must be an https URL/,
      'oauth-client',
      'add',
      '--name',
      'Logo',
      '--redirect-uri',
      'chemdesk://cb',
      '--logo-uri',
      'http://x.example/l.png',
    );
    fails(
      2,
      /Unknown option '--secret'/,
      'oauth-client',
      'add',
      '--name',
      'X',
      '--redirect-uri',
      'chemdesk://cb',
      '--secret',
      'mine',
    );
    assert.doesNotMatch(succeeds('oauth-client', 'list'), /"Bad"|"Logo"|"No URI"/, 'nothing refused was stored');
  });

  it('list shows the operator’s clients with their redirect URIs and live connections; remove ends a client, once', () => {
    const { id } = add('--name', 'To remove', '--redirect-uri', 'chemdesk://remove/callback');
    const listed = succeeds('oauth-client', 'list');
    assert.match(
      listed,
      new RegExp(
        `^${id} "To remove": registered by the operator, public, 0 live connections\\n  Redirect URIs: chemdesk://remove/callback\\n  Created \\S+Z, first used never$`,
        'm',
      ),
    );
    assert.match(succeeds('oauth-client', 'list', '--all'), new RegExp(id));
    assert.match(
      succeeds('oauth-client', 'remove', id),
      new RegExp(
        `^Removed OAuth client ${id} "To remove"; ended 0 live connections and 0 access tokens that still worked\\.\\n$`,
      ),
    );
    assert.doesNotMatch(succeeds('oauth-client', 'list', '--all'), new RegExp(id));
    fails(
      1,
      new RegExp(`No OAuth client with id "${id}"; "oauth-client list --all" lists every client`),
      'oauth-client',
      'remove',
      id,
    );
    fails(2, /needs exactly one client id/, 'oauth-client', 'remove');
    fails(2, /Unexpected argument "extra"/, 'oauth-client', 'list', 'extra');
  });

  it('list --all shows self-registered clients too, their control characters escaped; remove takes one as well', () => {
    // As the registration endpoint stores a client that registered itself, whose name anyone may choose.
    const sqlite = openSqliteFile(env.DATABASE_URL!);
    try {
      sqlite
        .prepare(
          `INSERT INTO "OAuthClient" ("id", "name", "redirectUris", "registeredBy", "tokenEndpointAuthMethod", "createdAt")
           VALUES (?, ?, ?, 'dynamic', 'none', ?)`,
        )
        .run(
          'self-registered-agent',
          'Agent\u001b[2J\u202e',
          JSON.stringify(['http://127.0.0.1:33418/cb']),
          Date.now(),
        );
    } finally {
      sqlite.close();
    }
    assert.doesNotMatch(succeeds('oauth-client', 'list'), /self-registered-agent/, 'the operator’s clients alone');
    const all = succeeds('oauth-client', 'list', '--all');
    assert.match(
      all,
      /^self-registered-agent "Agent\\u\{1b\}\[2J\\u\{202e\}": self-registered, public, 0 live connections\n {2}Redirect URIs: http:\/\/127\.0\.0\.1:33418\/cb$/m,
    );
    assert.ok(!all.includes('\u001b') && !all.includes('\u202e'), 'no control character reaches the terminal');
    assert.match(
      succeeds('oauth-client', 'remove', 'self-registered-agent'),
      /^Removed OAuth client self-registered-agent /,
    );
  });
});

describe('usage errors', () => {
  it('an unknown command or none at all exits 2 with the usage', () => {
    fails(2, /Unknown command "key frobnicate"/, 'key', 'frobnicate');
    fails(2, /Usage:/);
    fails(2, /Unknown option '--bogus'/, 'key', 'create', '--owner', OWNER, '--bogus');
    fails(2, /exactly one key reference/, 'key', 'show');
  });
});

describe('the binary, as an operator runs it (npm run --silent cli -- …)', () => {
  it('exits 0 with the answer on stdout, 1 for a refused operation and 2 for a usage error, each message on stderr', () => {
    const owner = 'binary@example.test';
    const user = runCliBinary(env, ['user', 'create', '--email', owner, '--password', PASSWORD]);
    assert.equal(user.status, 0, user.stderr);
    assert.match(user.stdout, /^Created developer binary@example\.test/);
    const created = runCliBinary(env, ['key', 'create', '--owner', owner, '--json']);
    assert.equal(created.status, 0, created.stderr);
    assert.equal(created.stderr, '');
    assert.equal(keyFormatProblem(JSON.parse(created.stdout).key), null);
    const refused = runCliBinary(env, ['key', 'show', 'zzzz-not-a-key']);
    assert.equal(refused.status, 1);
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, /No key matches/);
    const misused = runCliBinary(env, ['key', 'frobnicate']);
    assert.equal(misused.status, 2);
    assert.match(misused.stderr, /Unknown command "key frobnicate"[\s\S]*Usage: npm run --silent cli -- <command>/);
  });
});
