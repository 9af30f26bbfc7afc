/**
 * Password hashing with scrypt (memory-hard; built into Node, no native add-on). Stored as
 * "scrypt$N$r$p$salt$hash" so the cost can be raised later without breaking old hashes.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
/** scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is exactly too small for N = 2^15. */
const maxmem = (o: { N: number; r: number }) => 256 * o.N * o.r;

function derive(password: string, salt: Buffer, options: ScryptOptions & { N: number; r: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: maxmem(options) }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(N), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const MIN_PASSWORD_LENGTH = 10;
/** No password is longer, so a longer one can be refused as wrong without hashing it. */
export const MAX_PASSWORD_LENGTH = 200;

/** Passwords must be long rather than clever (NIST SP 800-63B). */
export function passwordProblem(password: string): string | null {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH)
    return `Passwords need at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `Passwords can have at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}
