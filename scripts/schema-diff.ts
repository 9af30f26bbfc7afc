/**
 * What the schema has that the migrations do not: the SQL `prisma migrate diff --from-migrations
 * --to-schema` would print. The engine replays the provider's migration history into a scratch database
 * (in-memory SQLite, or a throwaway PostgreSQL database), introspects it and diffs that against the
 * schema. This compares with what the migrations really produce, not with a remembered earlier schema,
 * so a hand-edited or missing migration shows up too. Used to create migrations and to check drift.
 */

import type { DatabaseProvider } from '../lib/config.ts';
import { SCHEMA_PATH, schemaFor } from '../lib/db/schema-source.ts';
import { engineMigrationList, NO_FILTERS, withSchemaEngine } from './schema-engine.ts';

/** The engine's diff exit code when the two sides differ (as `migrate diff --exit-code`). */
const DIFFERENT = 2;

/** The SQL that would bring the migrated database to `schema`; empty when there is nothing to do. */
export async function unmigratedChanges(provider: DatabaseProvider, schema = schemaFor(provider)): Promise<string> {
  const history = engineMigrationList(provider);
  const from =
    history.migrationDirectories.length === 0
      ? ({ tag: 'empty' } as const)
      : { tag: 'migrations' as const, ...history };
  const result = await withSchemaEngine(provider, (engine) =>
    engine.diff({
      from,
      to: { tag: 'schemaDatamodel', files: [{ path: SCHEMA_PATH, content: schema }] },
      script: true,
      exitCode: true,
      filters: NO_FILTERS,
    }),
  );
  return result.exitCode === DIFFERENT ? (result.stdout ?? '') : '';
}
