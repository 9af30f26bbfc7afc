/**
 * Leaked secrets, however they are reported (the public report-leak endpoint, a support agent pasting a
 * list, an owner's "report as leaked"): every matching key that is still active is disabled at once,
 * and every match, active or not, leaves an audit event naming the report, so the trail shows each
 * sighting of a secret. Secrets are matched by keyed hash only; they are never stored or logged.
 */
import type { Actor } from '../audit/write.ts';
import type { Db } from '../db/client.ts';
import { KEY_PATTERN, keyFormatProblem } from './format.ts';
import { hashKey } from './hash.ts';
import { LEAK_REASON_PREFIX } from './status.ts';
import { disableKey, isDisabledAt, recordLeakOfStoppedKey } from './store.ts';

interface LeakOutcome {
  /** Distinct well-formed secrets examined (checksum valid). */
  examined: number;
  /** Of those, how many belong to a key. */
  matched: number;
  /** Keys this report disabled. */
  disabled: number;
  /** Matching keys that were already disabled. */
  alreadyDisabled: number;
  /** Ids of the matching keys (for staff; never shown to anonymous reporters). */
  keyIds: string[];
  /** Of those, the keys this report disabled; the others were off already. */
  disabledKeyIds: string[];
}

/** Every distinct key-shaped string with a valid checksum found in free text (pasted lists, logs, files). */
export function secretsInText(text: string): string[] {
  return [...new Set(text.match(KEY_PATTERN) ?? [])].filter((s) => keyFormatProblem(s) === null);
}

export async function disableLeakedSecrets(
  db: Db,
  secrets: string[],
  actor: Actor,
  report: string,
): Promise<LeakOutcome> {
  const distinct = [...new Set(secrets)].filter((s) => keyFormatProblem(s) === null);
  const outcome: LeakOutcome = {
    examined: distinct.length,
    matched: 0,
    disabled: 0,
    alreadyDisabled: 0,
    keyIds: [],
    disabledKeyIds: [],
  };
  if (!distinct.length) return outcome;
  const hashes = distinct.map(hashKey);
  // A leaked access token stops its key, as the key's own secret does.
  const keys = await db.apiKey.findMany({
    where: { OR: [{ keyHash: { in: hashes } }, { secrets: { some: { hash: { in: hashes } } } }] },
  });
  const reason = `${LEAK_REASON_PREFIX}${report}`;
  for (const key of keys) {
    outcome.matched++;
    outcome.keyIds.push(key.id);
    // A reissued key's old secret in its grace period is still live: a leak report stops it now.
    if (key.disabledAt && isDisabledAt(key.disabledAt)) {
      outcome.alreadyDisabled++;
      await recordLeakOfStoppedKey(db, key, reason, actor);
      continue;
    }
    try {
      await disableKey(db, { keyId: key.id, reason: reason, actor: actor, kind: 'leaked' });
      outcome.disabled++;
      outcome.disabledKeyIds.push(key.id);
    } catch {
      // Disabled by someone else between the read and now: it is off, which is what the report wants.
      outcome.alreadyDisabled++;
    }
  }
  return outcome;
}
