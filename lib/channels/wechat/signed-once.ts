/**
 * A signed query string is good for one request. Plain mode's signature covers only (token, timestamp,
 * nonce), not the body, and a GET verification is signed the same way as a POST: a query seen once (in a
 * log, a proxy, a request the endpoint ignores) could otherwise carry any body for FRESH_MS. So every
 * request whose signature checks out claims (timestamp, nonce, signature) before anything is done with
 * it, ignored deliveries included, bound to what it was used for: the method, and for a POST a digest of
 * its body. The same query again with the same use is the platform's retry, and passes (the delivery id
 * then makes sure it is acted on once); with another use (another body, or a GET's query on a POST) it
 * is refused. Claims live in the deliveries table, kept longer than a signature stays fresh.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { answerOnce } from '../deliveries.ts';

/** A POST's body is null when it was over the size cap (and not read to the end). */
type SignedUse = { method: 'GET' } | { method: 'POST'; body: string | null };

function claimValue(use: SignedUse): string {
  if (use.method === 'GET') return 'GET';
  return use.body === null ? 'POST over the size cap' : `POST ${createHash('sha256').update(use.body).digest('hex')}`;
}

/** True when this signed query is new, or was claimed before for exactly this use (a retry). */
export async function claimSignedQuery(
  db: Db,
  parts: { timestamp: string; nonce: string; signature: string },
  use: SignedUse,
): Promise<boolean> {
  const wanted = claimValue(use);
  const claimId = `signed:${parts.timestamp}:${parts.nonce}:${parts.signature.toLowerCase()}`;
  const claim = await answerOnce(db, 'wechat', claimId, async () => wanted);
  return !claim.repeated || claim.reply === wanted;
}
