/**
 * GET: the platform checks the server URL by sending signature, timestamp, nonce and echostr, and
 * expects echostr back as it came. The Official Account documentation describes this one form in
 * every mode (safe mode included: an encrypted echostr with msg_signature is WeCom's, not this
 * platform's), so that is what is answered; anything else is refused without echoing. The signed query
 * is claimed as a GET's (signed-once.ts), so it can never be reused to sign a POST.
 */
import type { Db } from '../../db/client.ts';
import { plainText, refused } from './responses.ts';
import type { WechatSettings } from './settings.ts';
import { isFresh, signatureMatches } from './signature.ts';
import { claimSignedQuery } from './signed-once.ts';

export async function answerVerification(
  request: Request,
  settings: WechatSettings,
  db: Db,
  now = Date.now(),
): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const timestamp = query.get('timestamp');
  const nonce = query.get('nonce') ?? '';
  const signature = query.get('signature');
  const echostr = query.get('echostr');
  if (!echostr) return refused('GET', 'no echostr');
  if (!isFresh(timestamp, now)) return refused('GET', 'stale or missing timestamp');
  if (!signatureMatches(signature, settings.token, timestamp!, nonce)) return refused('GET', 'bad signature');
  if (!(await claimSignedQuery(db, { timestamp: timestamp!, nonce, signature: signature! }, { method: 'GET' })))
    return refused('GET', 'signature already used for another request');
  return plainText(echostr);
}
