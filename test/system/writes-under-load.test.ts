// test-lane: serial (it loads the machine fully while every write path must succeed)
/**
 * Every write path succeeds while /mcp is as busy as this machine can make it: the
 * operator disabling leaked keys with the CLI one after another, twelve `cli user create` at once, the
 * portal disabling keys (its server action over HTTP, in the server process beside the hot path, and the
 * key service from another process), and a compound import. Each must succeed, each disabled key must
 * then be refused on /mcp, and every answered call must be in the call log (and nothing else).
 *
 * On SQLite this failed before: Prisma began its transactions with a deferred BEGIN, so one that read and
 * then wrote had to upgrade its read snapshot to a write lock, which fails with SQLITE_BUSY(_SNAPSHOT) as
 * soon as the hot path committed in between, whatever the busy timeout. The same disables run on
 * PostgreSQL too.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { CLI_ACTOR } from '../../lib/audit/write.ts';
import { createDb, type Db } from '../../lib/db/client.ts';
import { sqliteFilePath } from '../../lib/db/sqlite-file.ts';
import { disableKey, issueKey, MAX_LIMIT } from '../../lib/keys/store.ts';
import { errorBody } from '../support/mcp-answers.ts';
import { bearer, postMcp, toolCall } from '../support/mcp-client.ts';
import { driveMcp, type LoadReport } from '../support/mcp-load.ts';
import { scratchPostgresUrl } from '../support/test-databases.ts';
import { ROOT, startTestServer, type TestServer } from '../support/test-server.ts';
import { callServerAction, formOf, serverActionIds, signInWithForm } from '../support/web-client.ts';

// One key-hash secret for the servers and this process, which issues their keys (lib/keys/hash.ts).
const SECRETS = { KEY_HASH_SECRET: randomBytes(32).toString('hex'), AUTH_SECRET: randomBytes(32).toString('hex') };
process.env.KEY_HASH_SECRET = SECRETS.KEY_HASH_SECRET;

/** Bounds on the load, so the suite stays short whatever happens. */
const LOAD = { connections: 24, maxMs: 150_000, maxCalls: 400_000 };

interface CliRun {
  args: string[];
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The operator CLI as a child process, without blocking this process's event loop (which drives the load). */
function cli(server: TestServer, ...args: string[]): Promise<CliRun> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'lib/cli/main.ts'), ...args], {
      cwd: ROOT,
      env: server.env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => done({ args, status, stdout, stderr }));
  });
}

function assertSucceeded(run: CliRun): CliRun {
  assert.equal(run.status, 0, `cli ${run.args.join(' ')} exited ${run.status}:\n${run.stderr}`);
  return run;
}

/** Keys owned by the admin, with limits far above what the load can reach (through the key service: a CLI run per key is slow). */
async function createKeys(db: Db, server: TestServer, count: number): Promise<{ id: string; key: string }[]> {
  const admin = await db.user.findUniqueOrThrow({ where: { email: server.adminEmail } });
  const created: { id: string; key: string }[] = [];
  for (let i = 0; i < count; i++) {
    const { key, secret } = await issueKey(
      db,
      { ownerId: admin.id, name: `load ${i}`, dailyQuota: MAX_LIMIT, ratePerSecond: MAX_LIMIT },
      CLI_ACTOR,
    );
    created.push({ id: key.id, key: secret });
  }
  return created;
}

async function assertRefusedOnMcp(server: TestServer, key: string): Promise<void> {
  const answer = await postMcp(
    server.mcpUrl,
    toolCall('service_query_compound', { compound_name: 'water' }),
    bearer(key),
  );
  assert.equal(answer.status, 401, answer.text);
  assert.equal(errorBody(answer).error, 'invalid_api_key');
}

/** The admin's browser session disabling its own key through the key page's server action. */
async function portalDisabler(server: TestServer) {
  const { jar } = await signInWithForm(server.baseUrl, server.adminEmail, server.adminPassword!);
  const actionId = serverActionIds().get('app/keys/actions.ts#disableKeyAction');
  assert.ok(actionId, 'disableKeyAction is in the build');
  return async (keyId: string) => {
    const answer = await callServerAction(server.baseUrl, {
      page: `/keys/${keyId}`,
      actionId,
      args: [null, formOf({ keyId, reason: 'leaked (portal, under load)' })],
      jar,
    });
    assert.equal(answer.status, 200, answer.text.slice(0, 500));
    assert.match(answer.text, /The key is disabled/, answer.text.slice(0, 500));
  };
}

/** Disables keys with every write path while the load runs; returns once all of them are done. */
async function writeUnderLoad(t: TestContext, server: TestServer, provider: 'sqlite' | 'postgresql') {
  // Closed before returning, not in t.after: a scratch PostgreSQL database is dropped by an earlier-registered hook.
  const db = createDb(server.env.DATABASE_URL);
  try {
    return await disableEverywhere(t, server, db, provider);
  } finally {
    await db.$disconnect();
  }
}

async function disableEverywhere(t: TestContext, server: TestServer, db: Db, provider: 'sqlite' | 'postgresql') {
  const loadKeys = await createKeys(db, server, 4);
  const byCli = await createKeys(db, server, 3);
  const byAction = await createKeys(db, server, 2);
  const byService = await createKeys(db, server, 2);
  const disableByAction = await portalDisabler(server);
  const importDir = mkdtempSync(join(tmpdir(), 'chemflow-load-import-'));
  t.after(() => rmSync(importDir, { recursive: true, force: true }));
  const csv = join(importDir, 'load.csv');
  writeFileSync(
    csv,
    'name,cas,formula,smiles,critical_temperature_K,source\nloadolane,9999999-99-5,C7H16O,[13CH3]CCCCCCO,601.5,Invented for this test\n',
  );

  const load = driveMcp(
    server.mcpUrl,
    loadKeys.map((k) => k.key),
    LOAD,
  );
  let report: LoadReport;
  try {
    await load.answeredAtLeast(200);
    const cliDisables = (async () => {
      // One after another, as an operator would after a leak: each must work, not "eventually one".
      for (const { id } of byCli)
        assertSucceeded(await cli(server, 'key', 'disable', id, '--reason', 'leaked (CLI, under load)'));
    })();
    const portalDisables = (async () => {
      for (const { id } of byAction) await disableByAction(id);
      for (const { id } of byService)
        await disableKey(db, {
          keyId: id,
          reason: 'leaked (key service, under load)',
          actor: CLI_ACTOR,
          kind: 'leaked',
        });
    })();
    await Promise.all([cliDisables, portalDisables]);
    if (provider === 'sqlite') {
      const users = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          cli(server, 'user', 'create', '--email', `load-${i}@example.test`, '--password', 'a long enough password'),
        ),
      );
      users.forEach(assertSucceeded);
      assertSucceeded(await cli(server, 'compounds', 'import', csv));
    }
  } finally {
    report = await load.stop();
  }
  t.diagnostic(
    `load: ${report.calls} calls in ${report.seconds.toFixed(1)} s (${Math.round(report.calls / report.seconds)}/s), statuses ${JSON.stringify(report.statuses)}`,
  );
  // A 503 is allowed (a writer descheduled while it holds the lock on a crowded machine can outlast the
  // hot path's deadline); anything else is not, and no answered call may be missing from the call log.
  assert.deepEqual(
    Object.keys(report.statuses).filter((status) => status !== '200' && status !== '503'),
    [],
    JSON.stringify(report.statuses),
  );

  for (const { key } of [...byCli, ...byAction, ...byService]) await assertRefusedOnMcp(server, key);
  return { loadKeys, report };
}

test('SQLite: every write path succeeds while /mcp runs flat out, and no answered call is lost', async (t) => {
  const server = await startTestServer(SECRETS);
  t.after(() => server.stop());
  const { loadKeys, report } = await writeUnderLoad(t, server, 'sqlite');

  const file = new Database(sqliteFilePath(server.env.DATABASE_URL!), { readonly: true });
  t.after(() => file.close());
  const logged = file.prepare('SELECT "requestId" FROM "CallLog" WHERE "keyId" = ?').pluck();
  for (const { id, key } of loadKeys) {
    assert.deepEqual(
      (logged.all(id) as string[]).sort(),
      [...report.answered.get(key)!].sort(),
      'the call log holds exactly the answered calls',
    );
  }
  const users = file.prepare(`SELECT COUNT(*) FROM "User" WHERE "email" LIKE 'load-%'`).pluck().get();
  assert.equal(users, 12);
  assert.equal(file.prepare(`SELECT COUNT(*) FROM "Compound" WHERE "name" = 'loadolane'`).pluck().get(), 1);
});

test('PostgreSQL: the same disables while /mcp runs flat out', async (t) => {
  let server: TestServer | undefined;
  t.after(async () => server?.stop());
  const url = await scratchPostgresUrl(t);
  if (!url) return;
  server = await startTestServer({ DATABASE_URL: url, ...SECRETS });
  const { loadKeys, report } = await writeUnderLoad(t, server, 'postgresql');

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const { id, key } of loadKeys) {
      const { rows } = await client.query<{ requestId: string }>(
        'SELECT "requestId" FROM "CallLog" WHERE "keyId" = $1',
        [id],
      );
      assert.deepEqual(
        rows.map((r) => r.requestId).sort(),
        [...report.answered.get(key)!].sort(),
        'the call log holds exactly the answered calls',
      );
    }
  } finally {
    await client.end();
  }
});
