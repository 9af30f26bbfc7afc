/**
 * The API key format: "cf_" + 32 base62 characters of CSPRNG randomness + a 6-character base62 CRC32
 * of those 32 characters (the scheme GitHub uses for its tokens). The checksum lets the service reject
 * a mistyped or truncated key without touching the database, and lets secret scanners find leaked keys
 * with a regular expression and confirm them offline.
 */
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const KEY_PREFIX = 'cf_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const KEY_LENGTH = KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
/** For secret scanners and for finding keys in pasted text. */
export const KEY_PATTERN = /\bcf_[0-9A-Za-z]{38}\b/g;
const KEY_SHAPE = /^cf_[0-9A-Za-z]{38}$/;
function base62Checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** A new secret. Rejection sampling keeps every base62 character equally likely. */
export function generateKey(): string {
  let body = '';
  while (body.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(RANDOM_LENGTH)) {
      // 248 = 4 × 62: bytes at or above it would favour the first characters, so they are skipped.
      if (byte < 248 && body.length < RANDOM_LENGTH) body += BASE62[byte % 62];
    }
  }
  return keyWithBody(body);
}

/** The key whose 32 random characters are `body`, checksum appended (tests make well-formed unknown keys). */
export function keyWithBody(body: string): string {
  return KEY_PREFIX + body + base62Checksum(body);
}

type KeyFormatProblem = 'prefix' | 'length' | 'characters' | 'checksum';

/** Why a string cannot be a key, or null when its shape and checksum are right. */
export function keyFormatProblem(candidate: string): KeyFormatProblem | null {
  if (!candidate.startsWith(KEY_PREFIX)) return 'prefix';
  if (candidate.length !== KEY_LENGTH) return 'length';
  if (!KEY_SHAPE.test(candidate)) return 'characters';
  const body = candidate.slice(KEY_PREFIX.length, KEY_PREFIX.length + RANDOM_LENGTH);
  if (base62Checksum(body) !== candidate.slice(KEY_PREFIX.length + RANDOM_LENGTH)) return 'checksum';
  return null;
}

export function describeFormatProblem(problem: KeyFormatProblem): string {
  switch (problem) {
    case 'prefix':
      return `API keys start with "${KEY_PREFIX}"`;
    case 'length':
      return `API keys are ${KEY_LENGTH} characters long; check that the whole key was copied`;
    case 'characters':
      return 'API keys contain only letters and digits after "cf_"; check for stray spaces or quotes';
    case 'checksum':
      return "the key's checksum does not match, so it was mistyped or altered";
  }
}

/** The parts kept for display: first and last 4 characters after the prefix. */
export function keyDisplayParts(key: string): { start: string; end: string } {
  const body = key.slice(KEY_PREFIX.length);
  return { start: body.slice(0, 4), end: body.slice(-4) };
}

/** The display form "cf_abcd…wxyz" (the full secret is shown only once, at issue time). */
export function displayKey(parts: { start: string; end: string }): string {
  return `${KEY_PREFIX}${parts.start}…${parts.end}`;
}
