/**
 * Keys are stored only as HMAC-SHA256 digests under a server secret, so a copy of the database alone
 * cannot be used to confirm a guessed or leaked key. Lookups go by digest (an indexed equality match on
 * a value derived with a secret), which leaks no timing information about stored keys.
 *
 * The secret comes from KEY_HASH_SECRET. For the embedded SQLite default it is generated on first start
 * and kept in a file beside the database (not in it), mode 0600. Shared deployments (PostgreSQL) must
 * set KEY_HASH_SECRET on every instance: a generated file would differ per machine.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { databaseProvider, databaseUrl } from '../db/url.ts';

const MIN_SECRET_LENGTH = 32;

function secretFilePath(): string {
  // The ignore comment stops Next's file tracer from bundling the whole project for this run-time path.
  return resolve(/* turbopackIgnore: true */ process.cwd(), process.env.KEY_HASH_SECRET_FILE || 'data/key-hash-secret');
}


function loadOrCreateSecret(): string {
  const fromEnv = process.env.KEY_HASH_SECRET;
  if (fromEnv) {
    if (fromEnv.length < MIN_SECRET_LENGTH) {
      throw new Error(`KEY_HASH_SECRET must be at least ${MIN_SECRET_LENGTH} characters (use: openssl rand -hex 32)`);
    }
    return fromEnv;
  }
  if (databaseProvider(databaseUrl()) === 'postgresql') {
    throw new Error('KEY_HASH_SECRET must be set when DATABASE_URL points at PostgreSQL, and be the same on every instance (use: openssl rand -hex 32)');
  }
  const file = secretFilePath();
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('hex');
  // "wx" fails if another process created the file meanwhile; then that process's secret wins.
  try {
    writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    return readFileSync(file, 'utf8').trim();
  }
}

let secret: string | undefined;

/** The stored form of a key: hex HMAC-SHA256 under the server secret. */
export function hashKey(key: string): string {
  secret ??= loadOrCreateSecret();
  return createHmac('sha256', secret).update(key).digest('hex');
}
