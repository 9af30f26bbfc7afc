/**
 * Whose key a request carries, decided in one place: the credentials read from its headers, the key's
 * row and whether it still works (verify.ts), and the key-authentication throttle of the client's
 * address (lib/limits/key-auth-throttle.ts). The answer is a decision with the spec's error code and a
 * message a person can act on; lib/mcp turns it into the HTTP answer (401 with its challenge, 400, 503)
 * and counts the secrets of keys that stopped working.
 */
import type { KeyRow } from '../db/hot-path.ts';
import type { KeyAuthThrottle } from '../limits/key-auth-throttle.ts';
import { hashKey } from './hash.ts';
import type { StoppedReason, Verification } from './verify.ts';

/** The key as the request's headers carry it (lib/mcp/credentials.ts reads them). */
export type Credentials =
  | { kind: 'key'; key: string }
  | { kind: 'missing' }
  | { kind: 'bad_header'; message: string }
  | { kind: 'conflict' };

export type Authentication =
  | { ok: true; key: KeyRow }
  | {
      ok: false;
      error: 'missing_api_key' | 'invalid_api_key' | 'conflicting_api_keys';
      message: string;
      /** The OAuth challenge's error: `invalid_token` when a token was sent and refused. */
      tokenError?: 'invalid_token';
      retryAfterSeconds?: number;
      /** A key that exists but stopped working: its id and how, for the refused-call count. */
      stopped?: { keyId: string; reason: StoppedReason };
    }
  /** The database could not say (down, or past the call's deadline). */
  | { ok: false; error: 'database_unavailable'; cause: unknown };

const MISSING_KEY_MESSAGE =
  'This method needs an API key. Send it as "Authorization: Bearer <key>" or in the "X-API-Key: <key>" header.';

const CONFLICT_MESSAGE =
  'The Authorization and X-API-Key headers carry different keys; send one key (either header is enough).';

interface KeyAuthenticatorParts {
  verifyKey: (secret: string, now: number, deadline?: number) => Promise<Verification>;
  throttle: KeyAuthThrottle;
}

export type KeyAuthenticator = (
  credentials: Credentials,
  call: { clientAddress: string | undefined; now: number; deadline: number },
) => Promise<Authentication>;

export function createKeyAuthenticator({ verifyKey, throttle }: KeyAuthenticatorParts): KeyAuthenticator {
  return async (credentials, { clientAddress, now, deadline }) => {
    switch (credentials.kind) {
      case 'missing':
        return { ok: false, error: 'missing_api_key', message: MISSING_KEY_MESSAGE };
      case 'bad_header':
        return { ok: false, error: 'invalid_api_key', message: credentials.message, tokenError: 'invalid_token' };
      case 'conflict':
        return { ok: false, error: 'conflicting_api_keys', message: CONFLICT_MESSAGE };
    }
    let verified: Verification;
    try {
      verified = await verifyKey(credentials.key, now, deadline);
    } catch (cause) {
      return { ok: false, error: 'database_unavailable', cause };
    }
    if (verified.ok && throttle.admits(clientAddress, verified.key.id, now)) return { ok: true, key: verified.key };
    const stopped =
      !verified.ok && 'keyId' in verified ? { keyId: verified.keyId, reason: verified.reason } : undefined;
    const lockedMs = verified.ok
      ? throttle.lockedFor(clientAddress, now)
      : await throttle.failed(clientAddress, hashKey(credentials.key), now);
    if (!verified.ok && lockedMs === 0)
      return { ok: false, error: 'invalid_api_key', message: verified.message, tokenError: 'invalid_token', stopped };
    return { ...lockedOut(throttle, lockedMs, now), stopped };
  };
}

/**
 * The refusal of every key sent from a locked address. It is the same for every key, so it tells a
 * scanner nothing about the key it tried; the spec (§5.6) keeps it a 401 invalid_api_key, with
 * Retry-After saying when the address may try again.
 */
function lockedOut(throttle: KeyAuthThrottle, lockedMs: number, now: number) {
  const seconds = Math.max(1, Math.ceil(lockedMs / 1000));
  const { limit, windowMs } = throttle.failures;
  const message =
    `Too many failed API keys came from this address (${limit} different keys within ${windowMs / 1000} s), so keys sent from it are refused ` +
    `until ${new Date(now + seconds * 1000).toISOString()}: retry in ${seconds} s. Keys that already worked from this address keep working.`;
  return {
    ok: false as const,
    error: 'invalid_api_key' as const,
    message,
    tokenError: 'invalid_token' as const,
    retryAfterSeconds: seconds,
  };
}
