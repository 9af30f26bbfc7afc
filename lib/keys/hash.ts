/**
 * Keys are stored only as HMAC-SHA256 digests under a server secret (KEY_HASH_SECRET, see
 * lib/secrets.ts), so a copy of the database alone cannot be used to confirm a guessed or leaked key.
 * Lookups go by digest (an indexed equality match on a value derived with a secret), which leaks no
 * timing information about stored keys.
 */
import { createHmac } from 'node:crypto';
import { loadOrCreateSecret } from '../secrets.ts';

let secret: string | undefined;

/** The stored form of a key: hex HMAC-SHA256 under the server secret. */
export function hashKey(key: string): string {
  secret ??= loadOrCreateSecret({
    envVar: 'KEY_HASH_SECRET',
    fileEnvVar: 'KEY_HASH_SECRET_FILE',
    defaultFile: 'data/key-hash-secret',
  });
  return createHmac('sha256', secret).update(key).digest('hex');
}
