/**
 * The answers the endpoint gives. "success" is the platform's documented empty answer: it shows the
 * follower nothing and stops the retries. A refusal says no more than "Forbidden" and never echoes.
 */
import { log } from '../../ops/log.ts';
import { createLogSampler } from '../../ops/log-sampler.ts';

const HEADERS = { 'cache-control': 'no-store' };

export function success(): Response {
  return new Response('success', { headers: { ...HEADERS, 'content-type': 'text/plain; charset=utf-8' } });
}

export function plainText(text: string): Response {
  return new Response(text, { headers: { ...HEADERS, 'content-type': 'text/plain; charset=utf-8' } });
}

export function xmlReply(xml: string): Response {
  return new Response(xml, { headers: { ...HEADERS, 'content-type': 'application/xml; charset=utf-8' } });
}

/** Anyone can send these, as fast as they like: the log keeps a sample per method and reason. */
const refusals = createLogSampler();

/** 403 for a request that is not (or no longer) the platform's, with why in the log. */
export function refused(method: string, reason: string): Response {
  refusals.log(`wechat ${method}: ${reason}`, 'warn', 'wechat request refused', { method, reason });
  return new Response('Forbidden', {
    status: 403,
    headers: { ...HEADERS, 'content-type': 'text/plain; charset=utf-8' },
  });
}

/** "success" for a delivery that is not acted on, with why in the log. */
export function notActedOn(reason: string, level: 'info' | 'warn' = 'warn'): Response {
  log(level, 'wechat delivery not acted on', { reason });
  return success();
}
