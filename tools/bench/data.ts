/**
 * `npm run bench:data`: the portal's queries at scale. Seeds a fresh SQLite file and a fresh PostgreSQL
 * database (when reachable) with 10,000 keys and 5,000,000 call-log rows over 30 days (scale-data.ts),
 * then times, one call after another, what the key detail page loads (the key and lib/usage/key-report.ts
 * keyReport: today per tool, 7-day trend, last 10 calls) for random keys and for the busiest keys, and
 * the support search (lib/portal/support.ts searchKeys) by 4 characters, by email and by secret.
 * Prints p50/p95/max per query and database (target p95 < 50 ms) and writes
 * tools/bench/results/data-latest.json.
 *
 * Options: --keys N, --calls N, --days N (sizes), --samples N (per query, default 200),
 * --database URL (measure an already seeded database instead; repeatable), --output FILE.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SYSTEM_ACTOR } from '../../lib/audit/write.ts';
import { createDb, type Db, databaseProvider } from '../../lib/db/client.ts';
import { issueKey } from '../../lib/keys/store.ts';
import type { Viewer } from '../../lib/portal/access.ts';
import { searchKeys } from '../../lib/portal/support.ts';
import { keyReport } from '../../lib/usage/key-report.ts';
import { createScratchDatabase, postgresProblem } from '../../scripts/scratch-postgres.ts';
import { ROOT } from '../../test/support/test-server.ts';
import { percentile } from './percentile.ts';
import { prepareScaleDatabase, scaleOptions } from './seed-scale.ts';

const TARGET_P95_MS = 50;

const { values } = parseArgs({
  options: {
    keys: { type: 'string', default: '10000' },
    calls: { type: 'string', default: '5000000' },
    days: { type: 'string', default: '30' },
    samples: { type: 'string', default: '200' },
    database: { type: 'string', multiple: true },
    output: { type: 'string', default: join(ROOT, 'tools/bench/results/data-latest.json') },
  },
});
const sizes = scaleOptions(['--keys', values.keys!, '--calls', values.calls!, '--days', values.days!]);
const samples = Number(values.samples);

interface QueryResult {
  database: string;
  query: string;
  samples: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  status: 'met' | 'missed';
}

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];

async function time(database: string, query: string, run: () => Promise<unknown>): Promise<QueryResult> {
  for (let i = 0; i < 10; i++) await run(); // warm caches and Prisma's query plans
  const took: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await run();
    took.push(performance.now() - started);
  }
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const p95 = round(percentile(took, 95));
  return {
    database,
    query,
    samples,
    p50Ms: round(percentile(took, 50)),
    p95Ms: p95,
    maxMs: round(Math.max(...took)),
    status: p95 < TARGET_P95_MS ? 'met' : 'missed',
  };
}

async function measureDatabase(database: string, db: Db): Promise<QueryResult[]> {
  const keys = await db.apiKey.findMany({ select: { id: true, start: true, end: true } });
  const owners = await db.user.findMany({
    where: { email: { endsWith: '@scale.example' } },
    select: { id: true, email: true },
  });
  const busiest = (
    await db.callLog.groupBy({
      by: ['keyId'],
      _count: { _all: true },
      orderBy: { _count: { keyId: 'desc' } },
      take: 20,
    })
  ).map((g) => g.keyId);
  const staff = await db.user.create({ data: { email: `bench-support-${Date.now()}@scale.example`, role: 'support' } });
  const viewer: Viewer = { id: staff.id, email: staff.email, name: null, role: 'support' };
  const secrets: string[] = [];
  for (let i = 0; i < 20; i++)
    secrets.push(
      (await issueKey(db, { ownerId: pick(owners).id, name: `bench secret ${i}`, tierId: 'pro' }, SYSTEM_ACTOR)).secret,
    );

  // What the key detail page loads: the key row, then its report.
  const detail = async (id: string) => keyReport(db, await db.apiKey.findUniqueOrThrow({ where: { id } }));
  return [
    await time(database, 'key detail, random key', () => detail(pick(keys).id)),
    await time(database, 'key detail, 20 busiest keys', () => detail(pick(busiest))),
    await time(database, 'support search, 4 characters', () => {
      const k = pick(keys);
      return searchKeys(db, viewer, Math.random() < 0.5 ? k.start : k.end);
    }),
    await time(database, 'support search, email', () => searchKeys(db, viewer, pick(owners).email)),
    await time(database, 'support search, secret', () => searchKeys(db, viewer, pick(secrets))),
  ];
}

async function seedAndMeasure(label: string, url: string): Promise<QueryResult[]> {
  const started = Date.now();
  const counts = await prepareScaleDatabase(url, sizes);
  console.log(
    `${label}: seeded ${counts.keys} keys, ${counts.calls} calls, ${counts.dailyUsageRows} daily rows in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return measureUrl(label, url);
}

async function measureUrl(label: string, url: string): Promise<QueryResult[]> {
  const db = createDb(url);
  try {
    return await measureDatabase(label, db);
  } finally {
    await db.$disconnect();
  }
}

async function main(): Promise<void> {
  // The seeded key hashes and the searched secrets must share one key-hash secret.
  process.env.KEY_HASH_SECRET ||= 'bench-'.padEnd(64, '0');
  const results: QueryResult[] = [];
  if (values.database?.length) {
    for (const url of values.database) results.push(...(await measureUrl(databaseProvider(url), url)));
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'chemflow-scale-'));
    try {
      results.push(...(await seedAndMeasure('sqlite', `file:${join(dir, 'scale.db')}`)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    if ((await postgresProblem()) === null) {
      const scratch = await createScratchDatabase('chemflow_scale');
      try {
        results.push(...(await seedAndMeasure('postgresql', scratch.url)));
      } finally {
        await scratch.drop();
      }
    } else {
      console.log('postgresql: skipped, not reachable at POSTGRES_ADMIN_URL');
    }
  }

  const table = [
    `| database | query | p50 | p95 | max | p95 < ${TARGET_P95_MS} ms |`,
    '|---|---|---:|---:|---:|---|',
    ...results.map(
      (r) => `| ${r.database} | ${r.query} | ${r.p50Ms} ms | ${r.p95Ms} ms | ${r.maxMs} ms | ${r.status} |`,
    ),
  ].join('\n');
  console.log(
    `\n${sizes.keys} keys, ${sizes.calls} call-log rows over ${sizes.days} days; ${samples} samples per query.\n\n${table}\n`,
  );
  const output = values.output!;
  mkdirSync(join(output, '..'), { recursive: true });
  writeFileSync(
    `${output}.tmp`,
    `${JSON.stringify({ measuredAt: new Date().toISOString(), machine: { cores: cpus().length, node: process.version }, sizes, samples, targetP95Ms: TARGET_P95_MS, results }, null, 2)}\n`,
  );
  renameSync(`${output}.tmp`, output);
  console.log(`Written to ${output}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
