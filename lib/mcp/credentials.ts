/**
 * Reads the API key from `Authorization: Bearer <key>` or `X-API-Key: <key>` (spec §5). The Bearer
 * scheme is matched case-insensitively (RFC 9110 §11.1) and surrounding whitespace is ignored; a key
 * sent in both headers must be the same key, since guessing which one the caller meant could bill the
 * wrong key.
 */
import type { Credentials } from '../keys/authenticate.ts';
import type { HeaderReader } from './request.ts';

export function readCredentials(headers: HeaderReader): Credentials {
  const authorization = headers.get('authorization')?.trim();
  const apiKeyHeader = headers.get('x-api-key')?.trim();

  let fromAuthorization: string | undefined;
  if (authorization) {
    const match = /^bearer\s+(\S+)$/i.exec(authorization);
    if (!match) {
      return {
        kind: 'bad_header',
        message:
          'The Authorization header must be "Bearer <API key>" (a single key after the word Bearer), or send the key in the X-API-Key header instead.',
      };
    }
    fromAuthorization = match[1];
  }
  const fromApiKey = apiKeyHeader || undefined;
  if (fromAuthorization && fromApiKey && fromAuthorization !== fromApiKey) return { kind: 'conflict' };
  const key = fromAuthorization ?? fromApiKey;
  return key ? { kind: 'key', key } : { kind: 'missing' };
}
