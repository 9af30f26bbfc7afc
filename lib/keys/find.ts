/**
 * Finding a key from what a person has at hand: its id, the full secret (matched by hash; a key's access
 * tokens find it too), the display form "cf_abcd…wxyz", or its first 4 characters after "cf_".
 */
import type { Db } from '../db/client.ts';
import { containsSecretFragment } from '../ops/redact.ts';
import { KeyStoreError } from './errors.ts';
import { KEY_PREFIX, keyFormatProblem } from './format.ts';
import { hashKey } from './hash.ts';

const DISPLAY_FORM = /^cf_([0-9A-Za-z]{4})(?:…|\.\.\.)([0-9A-Za-z]{4})$/;

export async function findKey(db: Db, reference: string) {
  const ref = reference.trim();
  if (ref.startsWith(KEY_PREFIX) && keyFormatProblem(ref) === null) {
    const hash = hashKey(ref);
    // Its own secret, or one of its further secrets (an OAuth access token).
    const key = await db.apiKey.findFirst({ where: { OR: [{ keyHash: hash }, { secrets: { some: { hash } } }] } });
    if (!key) throw new KeyStoreError('not_found', 'No key matches that secret.');
    return key;
  }
  const display = DISPLAY_FORM.exec(ref);
  const start = display ? display[1] : /^(?:cf_)?([0-9A-Za-z]{4})$/.exec(ref)?.[1];
  if (start) {
    const matches = await db.apiKey.findMany({ where: { start, ...(display ? { end: display[2] } : {}) }, take: 5 });
    if (matches.length === 1) return matches[0];
    if (matches.length > 1) {
      throw new KeyStoreError(
        'invalid',
        `"${ref}" matches several keys (${matches.map((k) => k.id).join(', ')}); use the key's id.`,
      );
    }
  }
  const byId = await db.apiKey.findUnique({ where: { id: ref } });
  if (!byId && containsSecretFragment(ref)) {
    // Most of a secret is still a secret: not echoed to the terminal (and from there to shell logs).
    throw new KeyStoreError(
      'not_found',
      'No key matches that secret: it is not a whole, valid key. Check that all 41 characters were copied (cf_ and 38 letters or digits).',
    );
  }
  if (!byId)
    throw new KeyStoreError(
      'not_found',
      `No key matches "${ref}" (give its id, the full secret, cf_abcd…wxyz, or its first 4 characters).`,
    );
  return byId;
}
