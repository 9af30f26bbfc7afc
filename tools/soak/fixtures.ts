/**
 * The soak's people and keys, written straight into the server's database with the same store functions
 * the operator CLI uses (one CLI process per key would take minutes for 100 keys): a developer who owns
 * every key and a support user. They then sign in over HTTP like anyone else.
 */
import { CLI_ACTOR } from '../../lib/audit/write.ts';
import { createUser } from '../../lib/auth/users.ts';
import { createDb, type Db } from '../../lib/db/client.ts';
import { issueKey } from '../../lib/keys/store.ts';
import type { PlannedKey } from './plan.ts';

export const DEVELOPER = { email: 'soak-dev@example.test', password: 'soak developer password 1' };
export const SUPPORT = { email: 'soak-support@example.test', password: 'soak support password 1' };

export interface IssuedKey {
  plan: PlannedKey;
  keyId: string;
  secret: string;
}

/**
 * Opens the server's database from this process. The key-hash secret must be the server's, or the
 * secrets issued here would not verify there.
 */
export function openServerDb(serverEnv: NodeJS.ProcessEnv): Db {
  process.env.KEY_HASH_SECRET = serverEnv.KEY_HASH_SECRET;
  return createDb(serverEnv.DATABASE_URL);
}

export async function createFixtures(db: Db, keys: PlannedKey[]): Promise<IssuedKey[]> {
  const developer = await createUser(db, { ...DEVELOPER, role: 'developer' }, CLI_ACTOR);
  await createUser(db, { ...SUPPORT, role: 'support' }, CLI_ACTOR);
  const issued: IssuedKey[] = [];
  for (const plan of keys) {
    const { key, secret } = await issueKey(
      db,
      {
        ownerId: developer.id,
        name: `soak ${plan.label}`,
        tierId: 'free',
        ...(plan.override ? { dailyQuota: plan.dailyQuota, ratePerSecond: plan.ratePerSecond } : {}),
      },
      CLI_ACTOR,
      // The operator's fixtures: up to --keys keys for one developer, past the owners' daily cap.
      { cap: 'bypass' },
    );
    issued.push({ plan, keyId: key.id, secret });
  }
  return issued;
}
