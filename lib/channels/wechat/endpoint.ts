/**
 * /api/channels/wechat: open when WECHAT_TOKEN is set, otherwise a 404 like any path the server does
 * not have. (A bad WECHAT_* value stops the server at start, in lib/config.ts, naming the variable.)
 */
import type { Db } from '../../db/client.ts';
import { answerDelivery } from './delivery.ts';
import { wechatSettings } from './settings.ts';
import { answerVerification } from './verification.ts';

const notFound = () => new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain' } });

export async function wechatGet(request: Request, db: Db): Promise<Response> {
  const settings = wechatSettings();
  return settings ? answerVerification(request, settings, db) : notFound();
}

export async function wechatPost(request: Request, db: Db): Promise<Response> {
  const settings = wechatSettings();
  return settings ? answerDelivery(request, { db, settings }) : notFound();
}
