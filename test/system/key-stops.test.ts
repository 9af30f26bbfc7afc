/**
 * Every way a key is stopped reaches its whole reissue chain, on a real server: the key is reissued twice
 * with a grace period (three secrets working), every secret is called once so the server has it cached,
 * then the newest key is stopped (by its owner, by support, as leaked by support, by the operator's CLI,
 * by the public leak endpoint, by support's leak paste, by an expiry support sets) and the older secrets
 * are refused from then on: the next call on SQLite, within a second in the shared mode (PostgreSQL
 * NOTIFY and Redis carry the change to the server's key cache). Every refusal says the kind of stop and
 * its date, and none of the staff's reason (a URL and a ticket number) appears in any /mcp answer, body
 * or header. Support's "disable as leaked" reads "leaked" for the owner, for support and in the CLI.
 */
// test-isolation: process (the key-hash secret below must be the one lib/keys/hash.ts reads: leak pastes hash here)
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { type TestContext, test } from 'node:test';
import { createDb, type Db } from '../../lib/db/client.ts';
import { issueKey, reissueKey } from '../../lib/keys/store.ts';
import { actorOf, type Viewer } from '../../lib/portal/access.ts';
import { disableMyKey, listMyKeys, myKeyDetail, reportMyKeyLeaked } from '../../lib/portal/keys.ts';
import {
  bulkDisableLeaked,
  searchKeys,
  staffChangeSettings,
  staffDisableKey,
  staffKeyDetail,
} from '../../lib/portal/support.ts';
import { errorBody } from '../support/mcp-answers.ts';
import { bearer, type McpAnswer, postMcp, rpc } from '../support/mcp-client.ts';
import { cleanUpPrefix, MACHINE_REDIS, redisAvailable, sharedEnv } from '../support/shared-mode.ts';
import { scratchPostgresUrl } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const HASH_SECRET = randomBytes(32).toString('hex');
process.env.KEY_HASH_SECRET = HASH_SECRET;
/** The server's settings: its hash secret, and room for the ~50 stopped secrets this suite sends from one address. */
const SERVER_ENV = { KEY_HASH_SECRET: HASH_SECRET, KEY_AUTH_MAX_FAILURES: '1000' };

/** What a support agent typed: none of it may reach whoever holds the secret. */
const REASON = 'Leaked: posted in public GitHub issue https://github.com/acme/notebooks/issues/42 (ticket SUP-1093)';
const REASON_PARTS = ['github.com', 'acme/notebooks', 'SUP-1093', 'GitHub issue', 'posted in public'];
const OWNER = 'stops@example.test';
const STAFF = 'agent@example.test';
const DAY_MS = 86_400_000;
const ISO = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z`;

interface Chain {
  /** Oldest first; the last is the live key, the others are in their grace period. */
  keys: { id: string; key: string }[];
}

interface Way {
  name: string;
  stop: (live: { id: string; key: string }) => Promise<void>;
  /** What the refusal of the stopped key says; null when the key itself keeps working (an expiry ahead). */
  live: RegExp | null;
  /** What the refusal of the secrets it replaced says. */
  predecessors: RegExp;
}

interface Setup {
  server: TestServer;
  db: Db;
  owner: Viewer;
  staff: Viewer;
  /** How long a change may take to reach the server's cache: 0 is the very next call. */
  waitMs: number;
}

async function viewer(db: Db, email: string): Promise<Viewer> {
  const user = await db.user.findUniqueOrThrow({ where: { email } });
  return { id: user.id, email: user.email, name: user.name, role: user.role as Viewer['role'] };
}

async function setUp(server: TestServer, waitMs: number): Promise<Setup> {
  server.cliOk('user', 'create', '--email', OWNER, '--password', 'correct horse battery');
  server.cliOk('user', 'create', '--email', STAFF, '--password', 'correct horse battery', '--role', 'support');
  const db = createDb(server.env.DATABASE_URL);
  return { server, db, owner: await viewer(db, OWNER), staff: await viewer(db, STAFF), waitMs };
}

const ping = (setup: Setup, secret: string) => postMcp(setup.server.mcpUrl, rpc('ping'), bearer(secret));

/** Three secrets of one allowance, each called once (so the server holds each in its cache). */
async function chainOfThree(setup: Setup, name: string): Promise<Chain> {
  const { db, owner } = setup;
  const by = actorOf(owner);
  const first = await issueKey(db, { ownerId: owner.id, name, ratePerSecond: 1000 }, by, { cap: 'bypass' });
  const second = await reissueKey(db, first.key.id, by, { grace: '7d', cap: 'bypass' });
  const third = await reissueKey(db, second.key.id, by, { grace: '24h', cap: 'bypass' });
  const keys = [first, second, third].map(({ key, secret }) => ({ id: key.id, key: secret }));
  for (const { key } of keys) assert.equal((await ping(setup, key)).status, 200, `${name}: works before the stop`);
  return { keys };
}

/** The first refusal of `secret`: the next answer, or (waitMs > 0) the first 401 within waitMs. */
async function refusalOf(setup: Setup, secret: string): Promise<McpAnswer> {
  const deadline = Date.now() + setup.waitMs;
  let answer = await ping(setup, secret);
  while (answer.status === 200 && Date.now() < deadline) answer = await ping(setup, secret);
  return answer;
}

function assertRefusal(answer: McpAnswer, says: RegExp, what: string): void {
  assert.equal(answer.status, 401, `${what}: ${answer.status} ${answer.text}`);
  const body = errorBody(answer);
  assert.equal(body.error, 'invalid_api_key', what);
  assert.match(body.message, says, what);
  assert.match(body.message, new RegExp(ISO), `${what}: the date it stopped`);
  const challenge = answer.headers.get('www-authenticate') ?? '';
  assert.ok(challenge.includes(body.message), `${what}: WWW-Authenticate carries the same words: ${challenge}`);
  const everything = [answer.text, ...[...answer.headers].map(([name, value]) => `${name}: ${value}`)].join('\n');
  for (const part of REASON_PARTS)
    assert.ok(!everything.includes(part), `${what}: "${part}" of the reason is in the answer`);
}

function ways(setup: Setup): Way[] {
  const { db, owner, staff, server } = setup;
  const tomorrow = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
  const byOwner = /API key disabled by its owner on /;
  const bySupport = /API key disabled by ChemFlow support on /;
  const leaked = /API key reported leaked on /;
  return [
    {
      name: 'the owner disables it in the portal',
      stop: async ({ id }) => void (await disableMyKey(db, owner, id, REASON, actorOf(owner))),
      live: byOwner,
      predecessors: byOwner,
    },
    {
      name: 'the owner reports it leaked in the portal',
      stop: async ({ id }) => void (await reportMyKeyLeaked(db, owner, id, actorOf(owner))),
      live: leaked,
      predecessors: leaked,
    },
    {
      name: 'support disables it',
      stop: async ({ id }) => void (await staffDisableKey(db, staff, id, REASON)),
      live: bySupport,
      predecessors: bySupport,
    },
    {
      name: 'support disables it as leaked',
      stop: async ({ id }) => void (await staffDisableKey(db, staff, id, REASON, actorOf(staff), true)),
      live: leaked,
      predecessors: leaked,
    },
    {
      name: 'the operator disables it with the CLI',
      stop: async ({ id }) => void server.cliOk('key', 'disable', id, '--reason', REASON),
      live: /API key disabled by the service's operator on /,
      predecessors: /API key disabled by the service's operator on /,
    },
    {
      name: 'the public leak endpoint gets its secret',
      stop: async ({ key }) => {
        const answer = await fetch(`${server.baseUrl}/api/keys/report-leak`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ secrets: [key], source: 'https://github.com/acme/notebooks/issues/42 SUP-1093' }),
        });
        assert.equal(answer.status, 202);
      },
      live: leaked,
      predecessors: leaked,
    },
    {
      name: "support's leak paste holds its secret",
      stop: async ({ key }) => {
        const outcome = await bulkDisableLeaked(db, staff, `seen in a log: Bearer ${key}`, REASON);
        assert.equal(outcome.disabled, 1);
      },
      live: leaked,
      predecessors: leaked,
    },
    {
      name: 'support sets an expiry on it',
      stop: async ({ id }) => {
        const form = { tierId: 'free', dailyQuota: '', ratePerSecond: '1000', expiresOn: tomorrow, reason: REASON };
        assert.deepEqual((await staffChangeSettings(db, staff, id, form)).changed, ['expiresAt']);
      },
      live: null,
      predecessors: /API key replaced on /,
    },
  ];
}

async function everyStopReachesTheChain(t: TestContext, setup: Setup): Promise<void> {
  for (const way of ways(setup)) {
    await t.test(`${way.name}: every older secret still in its grace period stops too`, async () => {
      const { keys } = await chainOfThree(setup, way.name.slice(0, 60));
      const live = keys.at(-1)!;
      await way.stop(live);
      if (way.live) assertRefusal(await refusalOf(setup, live.key), way.live, `${way.name}: the key itself`);
      else assert.equal((await ping(setup, live.key)).status, 200, `${way.name}: the key itself works on`);
      for (const [i, old] of keys.slice(0, -1).entries())
        assertRefusal(await refusalOf(setup, old.key), way.predecessors, `${way.name}: predecessor ${i + 1}`);
      const graceEnds = await setup.db.auditEvent.count({
        where: { action: 'key.grace_end', keyId: { in: keys.slice(0, -1).map((k) => k.id) } },
      });
      assert.equal(graceEnds, 2, `${way.name}: each predecessor's early end is audited`);
    });
  }
}

test('SQLite: every stop reaches the whole chain from the next call; refusals never show the reason', async (t) => {
  const server = await startTestServer(SERVER_ENV);
  const setup = await setUp(server, 0);
  t.after(async () => {
    await setup.db.$disconnect();
    await server.stop();
  });
  await everyStopReachesTheChain(t, setup);

  await t.test('an expired key and a reissued one are refused as such, without the reason', async () => {
    const { keys } = await chainOfThree(setup, 'expiring');
    const live = keys.at(-1)!;
    const form = { tierId: 'free', dailyQuota: '', ratePerSecond: '1000', expiresOn: '2099-01-01', reason: REASON };
    await staffChangeSettings(setup.db, setup.staff, live.id, form);
    // Past its expiry, as if the time had come (support's form refuses a day already past).
    await setup.db.apiKey.update({ where: { id: live.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    assertRefusal(await refusalOf(setup, live.key), /API key expired on /, 'expired');
    assertRefusal(await refusalOf(setup, keys[0].key), /API key replaced on /, 'replaced');
  });

  await t.test("support's disable as leaked reads leaked for the owner, for support and in the CLI", async () => {
    const { keys } = await chainOfThree(setup, 'leaked by support');
    const live = keys.at(-1)!;
    await staffDisableKey(setup.db, setup.staff, live.id, 'found in a pastebin', actorOf(setup.staff), true);
    const { report } = await myKeyDetail(setup.db, setup.owner, live.id);
    const listed = (await listMyKeys(setup.db, setup.owner)).keys.find((k) => k.id === live.id);
    const staffView = await staffKeyDetail(setup.db, setup.staff, live.id);
    const found = (await searchKeys(setup.db, setup.staff, OWNER)).results.find((k) => k.id === live.id);
    assert.deepEqual(
      [
        report.status,
        listed?.status,
        staffView.report.status,
        found?.status,
        setup.server.cliJson('key', 'show', live.id).status,
      ],
      ['leaked', 'leaked', 'leaked', 'leaked', 'leaked'],
    );
  });
});

test('shared mode (PostgreSQL and Redis): every stop reaches the whole chain within a second', async (t) => {
  let server: TestServer | undefined;
  let db: Db | undefined;
  // Registered before the scratch database's cleanup, so the server lets go of it before it is dropped.
  t.after(async () => {
    await db?.$disconnect();
    await server?.stop();
  });
  const url = await scratchPostgresUrl(t);
  if (!url || !(await redisAvailable(t, MACHINE_REDIS))) return;
  const env = { ...sharedEnv(url, MACHINE_REDIS), ...SERVER_ENV };
  cleanUpPrefix(t, MACHINE_REDIS, env.REDIS_KEY_PREFIX);
  server = await startTestServer(env);
  const setup = await setUp(server, 1000);
  db = setup.db;
  await everyStopReachesTheChain(t, setup);
});
