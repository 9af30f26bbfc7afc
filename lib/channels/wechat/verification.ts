/**
 * GET: the platform checks the server URL by sending signature, timestamp, nonce and echostr, and
 * expects echostr back as it came. The Official Account documentation describes this one form in
 * every mode (safe mode included: an encrypted echostr with msg_signature is WeCom's, not this
 * platform's), so that is what is answered; anything else is refused without echoing.
 */
import { plainText, refused } from './responses.ts';
import type { WechatSettings } from './settings.ts';
import { isFresh, signatureMatches } from './signature.ts';

export function answerVerification(request: Request, settings: WechatSettings, now = Date.now()): Response {
  const query = new URL(request.url).searchParams;
  const timestamp = query.get('timestamp');
  const nonce = query.get('nonce') ?? '';
  const echostr = query.get('echostr');
  if (!echostr) return refused('GET', 'no echostr');
  if (!isFresh(timestamp, now)) return refused('GET', 'stale or missing timestamp');
  if (!signatureMatches(query.get('signature'), settings.token, timestamp!, nonce))
    return refused('GET', 'bad signature');
  return plainText(echostr);
}
