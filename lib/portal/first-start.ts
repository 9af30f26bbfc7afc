/**
 * First-start seeding: the tier table from the tier policy, and — when the database has no admin yet —
 * an admin account with a one-time password and a free-tier demo key, both printed once by the caller.
 * Safe to run at every start: existing tiers and users are left as they are.
 */

import { randomInt } from 'node:crypto';
import { SYSTEM_ACTOR } from '../audit/write.ts';
import { createUser } from '../auth/users.ts';
import { config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { issueKey } from '../keys/store.ts';
import { tierPolicies } from '../limits/policy.ts';

interface SeedResult {
  admin?: { email: string; password: string; demoKey: string };
}

/** Creates the tiers of the tier policy that the table lacks; staff edits to existing tiers stand. */
export async function ensureTiers(db: Db): Promise<void> {
  for (const tier of tierPolicies()) {
    await db.tier.upsert({ where: { id: tier.id }, update: {}, create: tier });
  }
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * 16 letters and digits (95 bits): nothing a shell, a terminal's double-click selection or the CLI reads
 * differently (a password starting with "-" reads as an option to `user password --password`).
 */
function printablePassword(): string {
  return Array.from({ length: 16 }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
}

export async function seedDatabase(db: Db): Promise<SeedResult> {
  await ensureTiers(db);
  if (await db.user.findFirst({ where: { role: 'admin' } })) return {};

  const email = config().adminEmail;
  const password = printablePassword();
  // The password is printed to the console, where logs and other people may read it: the admin replaces it first thing.
  const admin = await createUser(
    db,
    { email, password, role: 'admin', name: 'Administrator', mustChangePassword: true },
    SYSTEM_ACTOR,
  );
  const { secret } = await issueKey(db, { ownerId: admin.id, name: 'Demo key', tierId: 'free' }, SYSTEM_ACTOR);
  return { admin: { email, password, demoKey: secret } };
}
