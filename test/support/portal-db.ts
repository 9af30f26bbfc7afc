/**
 * A scratch portal for service tests: a migrated SQLite database with the tiers and four people (two
 * developers, a support agent, an admin) as Viewers, plus their audit actors. Removed when the test ends.
 */
import type { TestContext } from 'node:test';
import type { Actor } from '../../lib/audit/write.ts';
import type { Role } from '../../lib/auth/roles.ts';
import { createDb, type Db } from '../../lib/db/client.ts';
import { migrateDatabase } from '../../lib/db/migrate.ts';
import { issueKey } from '../../lib/keys/store.ts';
import { actorOf, type Viewer } from '../../lib/portal/access.ts';
import { ensureTiers } from '../../lib/portal/first-start.ts';
import { setEnvForTest } from './env.ts';
import { scratchSqliteUrl } from './test-databases.ts';

/** The client address every audit actor of a scratch portal comes from. */
export const SCRATCH_IP = '203.0.113.9';

export interface ScratchPortal {
  /** The SQLite database's URL, for tests that open the file directly (the /mcp hot path). */
  url: string;
  db: Db;
  ada: Viewer;
  bob: Viewer;
  support: Viewer;
  admin: Viewer;
  actor: (viewer: Viewer) => Actor;
  issue: (owner: Viewer, name?: string, tierId?: string) => ReturnType<typeof issueKey>;
}

export async function scratchPortal(t: TestContext): Promise<ScratchPortal> {
  const url = scratchSqliteUrl(t);
  // The key store chooses how to announce changes from DATABASE_URL; here it is the scratch file.
  setEnvForTest(t, 'DATABASE_URL', url);
  await migrateDatabase(url);
  const db = createDb(url);
  t.after(() => db.$disconnect());
  await ensureTiers(db);
  const person = async (email: string, role: Role): Promise<Viewer> => {
    const user = await db.user.create({ data: { email, role } });
    return { id: user.id, email: user.email, name: null, role };
  };
  const portal = {
    url,
    db,
    ada: await person('ada@example.test', 'developer'),
    bob: await person('bob@example.test', 'developer'),
    support: await person('grace@example.test', 'support'),
    admin: await person('root@example.test', 'admin'),
    actor: (viewer: Viewer) => actorOf(viewer, SCRATCH_IP),
  };
  return {
    ...portal,
    issue: (owner, name = 'laptop', tierId = 'free') =>
      // A fixture, not the owner's own path: not held to the daily creation cap (lib/keys/store.ts).
      issueKey(db, { ownerId: owner.id, name, tierId }, portal.actor(owner), { cap: 'bypass' }),
  };
}
