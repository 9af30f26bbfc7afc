/**
 * /api/channels/wechat: on when WECHAT_TOKEN is set, otherwise a 404 like any path the server does not
 * have. Settings are read at each request; a bad one is logged (naming the variable) and answered 500,
 * so the operator sees it in the log and the platform's console, and the server keeps running.
 */
import type { Db } from '../../db/client.ts';
import { log } from '../../ops/log.ts';
import { answerDelivery } from './delivery.ts';
import { type WechatSettings, WechatSettingsError, wechatSettings } from './settings.ts';
import { answerVerification } from './verification.ts';

function settingsOrAnswer(): WechatSettings | Response {
  try {
    return wechatSettings() ?? new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain' } });
  } catch (error) {
    if (!(error instanceof WechatSettingsError)) throw error;
    log('error', 'the WeChat channel is misconfigured', { error: error.message });
    return new Response('The WeChat channel is misconfigured; the server log says which setting.', {
      status: 500,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }
}

export function wechatGet(request: Request): Response {
  const settings = settingsOrAnswer();
  return settings instanceof Response ? settings : answerVerification(request, settings);
}

export async function wechatPost(request: Request, db: Db): Promise<Response> {
  const settings = settingsOrAnswer();
  return settings instanceof Response ? settings : answerDelivery(request, { db, settings });
}
