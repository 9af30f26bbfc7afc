/**
 * `npm run soak`: the mixed soak. Starts the production server as `npm start` does, on a fresh
 * SQLite database (--postgres: a scratch PostgreSQL database), and for --minutes (default 10, or
 * SOAK_MINUTES) runs at once:
 * - tools/call across --keys keys (default 100) at a bit above their per-second limits (mcp-load.ts);
 * - a signed-in developer's and a signed-in support user's page loads every few seconds (portal-load.ts);
 * - key changes from the support console's server actions every few seconds (support-changes.ts);
 * - the server's RSS read every few seconds.
 * Then it compares what the clients saw with the usage tables, prints the summary, writes it to
 * tools/soak/results/latest.json (--output) and exits 1 when a criterion fails (verdict.ts).
 * Options: --minutes M, --warmup S (seconds left out of the RSS baseline; default 60, or a fifth of a
 * run shorter than 5 minutes), --keys N, --postgres, --output FILE.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FLUSH_INTERVAL_MS } from '../../lib/usage/refused-calls.ts';
import { ensureNextBuild } from '../../scripts/next-build.ts';
import { createScratchDatabase } from '../../scripts/scratch-postgres.ts';
import { listedTools } from '../../test/support/mcp-answers.ts';
import { postMcp, rpc } from '../../test/support/mcp-client.ts';
import { ROOT } from '../../test/support/test-server.ts';
import { startProductionServer } from '../bench/processes.ts';
import { createFixtures, DEVELOPER, openServerDb, SUPPORT } from './fixtures.ts';
import { driveKeys, KeySlot } from './mcp-load.ts';
import { sampleRss } from './memory.ts';
import { Observations } from './observations.ts';
import { CALL_MIX, OVERDRIVE, planKeys } from './plan.ts';
import { PortalSession } from './portal-client.ts';
import { developerPages, loadPages, supportPages } from './portal-load.ts';
import { recordedUsage } from './recorded-usage.ts';
import { formatReport } from './report.ts';
import { SupportConsole } from './support-changes.ts';
import { judge, type KeyTally } from './verdict.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: process.env.SOAK_MINUTES || '10' },
    warmup: { type: 'string' },
    keys: { type: 'string', default: '100' },
    postgres: { type: 'boolean', default: false },
    output: { type: 'string', default: join(ROOT, 'tools/soak/results/latest.json') },
  },
});

function positive(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, got "${raw}"`);
  return value;
}

const durationSeconds = positive('minutes', values.minutes!) * 60;
const warmupSeconds = values.warmup === undefined ? Math.min(60, durationSeconds / 5) : Number(values.warmup);
const keyCount = Math.round(positive('keys', values.keys!));
const PAGE_INTERVAL_MS = 3_000;
const CHANGE_INTERVAL_MS = 5_000;
/** Keys support changes in turn; the rest keep their settings all run. */
const SUPPORT_POOL_SIZE = 8;
const RSS_INTERVAL_MS = 2_000;
const PROGRESS_INTERVAL_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `step` every `intervalMs` until `until`, one step at a time. */
async function every(intervalMs: number, until: number, step: (round: number) => Promise<void>): Promise<void> {
  for (let round = 0; performance.now() < until; round++) {
    const started = performance.now();
    await step(round);
    await sleep(Math.max(0, Math.min(intervalMs - (performance.now() - started), until - performance.now())));
  }
}

async function main(): Promise<void> {
  console.log(
    `Soak: ${durationSeconds / 60} min, ${keyCount} keys, warm-up ${warmupSeconds} s, ${values.postgres ? 'PostgreSQL' : 'SQLite'}, ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}.`,
  );
  // Built first, so the server's start timeout is not spent building on a busy machine.
  await ensureNextBuild();
  const scratch = values.postgres
    ? await createScratchDatabase(`chemflow_soak_${randomBytes(2).toString('hex')}`)
    : undefined;
  try {
    await soak(scratch?.url);
  } finally {
    await scratch?.drop();
  }
}

async function soak(postgresUrl: string | undefined): Promise<void> {
  const server = await startProductionServer({
    // Warnings and errors only: every one of them is read at the end, and the per-call lines would cost CPU.
    LOG_LEVEL: 'warn',
    ...(postgresUrl ? { DATABASE_URL: postgresUrl, AUTH_SECRET: randomBytes(32).toString('hex') } : {}),
  });
  const db = openServerDb(server.env);
  try {
    const plan = planKeys(keyCount, durationSeconds);
    const issued = await createFixtures(db, plan);
    // Auth.js wants the host name the cookies are for (localhost, as the browser tests use).
    const baseUrl = server.baseUrl.replace('127.0.0.1', 'localhost');
    const mcpUrl = `${baseUrl}/mcp`;
    await checkToolsExist(mcpUrl);
    const developer = await PortalSession.signIn(baseUrl, DEVELOPER.email, DEVELOPER.password);
    const support = await PortalSession.signIn(baseUrl, SUPPORT.email, SUPPORT.password);

    const tallies = new Map<string, KeyTally>();
    const slots = issued.map((key) => new KeySlot(key.plan, key.keyId, key.secret, tallies));
    const observations = new Observations();
    // Free and quota keys alike, so limit changes and reissues meet keys that run out of quota too.
    const pool = slots
      .filter((_, i) => i % Math.max(1, Math.floor(slots.length / SUPPORT_POOL_SIZE)) === 0)
      .slice(0, SUPPORT_POOL_SIZE);
    const supportConsole = new SupportConsole(support, pool, observations);
    const calledPerSecond = slots.reduce((sum, s) => sum + s.ratePerSecond * OVERDRIVE, 0);
    console.log(
      `${slots.length} keys (${plan.filter((p) => p.override).length} with small quotas) called about ${Math.round(calledPerSecond)} times a second; support changes one of ${pool.length} keys every ${CHANGE_INTERVAL_MS / 1000} s.\n`,
    );

    const startedAt = performance.now();
    const until = startedAt + durationSeconds * 1000;
    const quotaDayAtStart = new Date().toISOString().slice(0, 10);
    const rss = sampleRss(server.pid, RSS_INTERVAL_MS);
    const progress = setInterval(() => {
      const sent = [...observations.counts.values()].reduce((a, b) => a + b, 0);
      console.log(
        `${Math.round((performance.now() - startedAt) / 1000)} s: ${sent.toLocaleString('en-US')} requests, ${observations.unexpected.length} unexpected, RSS ${rss.samples.at(-1)?.rssMb} MB`,
      );
    }, PROGRESS_INTERVAL_MS);
    await Promise.all([
      driveKeys(mcpUrl, slots, until, observations),
      every(PAGE_INTERVAL_MS, until, (round) =>
        loadPages(developer, developerPages(slots[round % slots.length]), observations),
      ),
      every(PAGE_INTERVAL_MS, until, (round) =>
        loadPages(support, supportPages(slots[(round * 7) % slots.length]), observations),
      ),
      every(CHANGE_INTERVAL_MS, until, () => supportConsole.changeNext()),
    ]);
    clearInterval(progress);
    rss.stop();

    // Every admitted call was committed before its answer; the 429s are counted off the hot path, written
    // within FLUSH_INTERVAL_MS, so after two intervals the tables are complete.
    await new Promise((done) => setTimeout(done, 2 * FLUSH_INTERVAL_MS));
    const recorded = await recordedUsage(db);
    for (const line of server.errorLines()) {
      observations.unexpected.push({ what: 'server log', problem: line.slice(0, 300) });
    }
    if (new Date().toISOString().slice(0, 10) !== quotaDayAtStart) {
      console.log(
        'Warning: the run crossed a UTC quota day, so daily quotas restarted during it; the quota check may report mismatches that are not.',
      );
    }
    const verdict = judge({
      unexpected: observations.unexpected,
      tallies: [...tallies.values()],
      recorded,
      rssSamples: rss.samples,
      warmupMs: warmupSeconds * 1000,
    });
    const report = {
      requests: observations.table(),
      unexpected: observations.unexpectedSummary(),
      verdict,
      supportChanges: supportConsole.done,
    };
    console.log(`\n${formatReport(report)}\n`);
    console.log(verdict.pass ? 'Soak passed.' : 'Soak FAILED.');

    const output = values.output!;
    mkdirSync(join(output, '..'), { recursive: true });
    const result = {
      measuredAt: new Date().toISOString(),
      machine: {
        cores: cpus().length,
        cpu: cpus()[0]?.model,
        memoryMb: Math.round(totalmem() / 2 ** 20),
        node: process.version,
        loadAverageAtEnd: loadavg().map((l) => Math.round(l * 10) / 10),
      },
      settings: {
        minutes: durationSeconds / 60,
        warmupSeconds,
        keys: keyCount,
        database: values.postgres ? 'postgresql' : 'sqlite',
        overdrive: OVERDRIVE,
        callMix: CALL_MIX.map((c) => c.name),
        pageIntervalMs: PAGE_INTERVAL_MS,
        changeIntervalMs: CHANGE_INTERVAL_MS,
      },
      pass: verdict.pass,
      criteria: verdict.criteria,
      requests: report.requests,
      unexpected: report.unexpected,
      supportChanges: report.supportChanges,
      quota: {
        keys: tallies.size,
        usedUp: [...tallies.values()].filter((t) => t.quotaRefusedUnderFinalQuota).length,
        mismatches: verdict.quotaMismatches,
      },
      rss: { ...verdict.rss, samples: rss.samples },
    };
    writeFileSync(`${output}.tmp`, `${JSON.stringify(result, null, 2)}\n`);
    renameSync(`${output}.tmp`, output);
    console.log(`Written to ${output}`);
    process.exitCode = verdict.pass ? 0 : 1;
  } finally {
    await db.$disconnect();
    await server.stop();
  }
}

/** The call mix names real tools (and one that is not), so tool errors are the ones planned. */
async function checkToolsExist(mcpUrl: string): Promise<void> {
  const answer = await postMcp(mcpUrl, rpc('tools/list'));
  const listed = new Set(listedTools(answer).map((t) => t.name));
  for (const call of CALL_MIX) {
    if (call.expect !== 'unknown_tool' && !listed.has(call.name)) throw new Error(`${call.name} is not in tools/list`);
    if (call.expect === 'unknown_tool' && listed.has(call.name))
      throw new Error(`${call.name} is in tools/list; the mix needs an unknown tool`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
