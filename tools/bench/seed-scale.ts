/**
 * `npm run seed:scale`: migrates DATABASE_URL (SQLite or PostgreSQL), creates the tiers, and fills it
 * with 10,000 keys and 5,000,000 call-log rows over 30 days plus their daily aggregates (see
 * scale-data.ts). Options: --keys N, --calls N, --days N. The database must hold no call-log rows yet.
 */
import { parseArgs } from 'node:util';
import { createDb, databaseUrl } from '../../lib/db/client.ts';
import { migrateDatabase } from '../../lib/db/migrate.ts';
import { ensureTiers } from '../../lib/portal/first-start.ts';
import { type ScaleCounts, type ScaleOptions, seedScale } from './scale-data.ts';

/** Migrates, adds the tiers, seeds; what `bench:data` and the tests call too. */
export async function prepareScaleDatabase(url: string, options: ScaleOptions): Promise<ScaleCounts> {
  await migrateDatabase(url);
  const db = createDb(url);
  try {
    await ensureTiers(db);
  } finally {
    await db.$disconnect();
  }
  return seedScale(url, options);
}

export function scaleOptions(args: string[]): ScaleOptions {
  const { values } = parseArgs({
    args,
    options: {
      keys: { type: 'string', default: '10000' },
      calls: { type: 'string', default: '5000000' },
      days: { type: 'string', default: '30' },
    },
  });
  const whole = (name: string, raw: string) => {
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < 1)
      throw new Error(`--${name} must be a whole number ≥ 1, got "${raw}"`);
    return value;
  };
  return { keys: whole('keys', values.keys!), calls: whole('calls', values.calls!), days: whole('days', values.days!) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = databaseUrl();
  const options = scaleOptions(process.argv.slice(2));
  const started = Date.now();
  prepareScaleDatabase(url, options)
    .then((counts) => {
      console.log(
        `Seeded ${counts.keys} keys (${counts.users} owners), ${counts.calls} calls, ${counts.dailyUsageRows} daily-usage rows in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
    })
    .catch((error) => {
      console.error(`seed:scale failed: ${error instanceof Error ? error.message : error}`);
      process.exit(1);
    });
}
