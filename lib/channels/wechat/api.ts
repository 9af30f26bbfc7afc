/**
 * The platform API the account calls itself: the access token (GET /cgi-bin/token), the custom menu
 * (POST /cgi-bin/menu/create) and customer-service messages (POST /cgi-bin/message/custom/send), for
 * replies that missed the passive reply's 5 s and for news the follower is waiting on (an upgrade
 * decision). The token is cached per app until shortly before it expires and fetched again once when
 * the platform says it is invalid or expired (40001, 42001: another server may have refreshed it).
 * Errors name the errcode and errmsg, never the secret or the token.
 */
import { WECHAT_REPLY_LIMIT } from '../types.ts';
import type { WechatMenu } from './menu.ts';
import { fitReply } from './reply-text.ts';
import { type WechatApiSettings, wechatApiSettings } from './settings.ts';

const TOKEN_INVALID = new Set([40001, 42001]);
const REQUEST_TIMEOUT_MS = 10_000;
/** Refresh this long before the platform's expires_in runs out (it gives 7200 s). */
const TOKEN_MARGIN_S = 300;

export class WechatApiError extends Error {
  constructor(
    message: string,
    readonly errcode?: number,
  ) {
    super(message);
  }
}

/** What every platform answer carries; errcode is absent or 0 on success. */
interface WechatAnswer {
  errcode?: number;
  errmsg?: string;
  [field: string]: unknown;
}

const tokens = new Map<string, Promise<{ token: string; until: number }>>();

async function call(settings: WechatApiSettings, path: string, query: string, body?: unknown): Promise<WechatAnswer> {
  let response: Response;
  try {
    response = await fetch(`${settings.apiBase}${path}?${query}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? undefined : { 'content-type': 'application/json; charset=utf-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new WechatApiError(`WeChat API ${path} unreachable: ${cause}`);
  }
  if (!response.ok) throw new WechatApiError(`WeChat API ${path} answered HTTP ${response.status}`);
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    throw new WechatApiError(`WeChat API ${path} answered something other than JSON`);
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer))
    throw new WechatApiError(`WeChat API ${path} answered something other than a JSON object`);
  const { errcode, errmsg } = answer as WechatAnswer;
  if (errcode !== undefined && errcode !== 0)
    throw new WechatApiError(`WeChat API ${path} answered errcode ${errcode}: ${String(errmsg ?? '')}`, errcode);
  return answer as WechatAnswer;
}

async function fetchToken(settings: WechatApiSettings): Promise<{ token: string; until: number }> {
  const query = new URLSearchParams({
    grant_type: 'client_credential',
    appid: settings.appId,
    secret: settings.appSecret,
  });
  const answer = await call(settings, '/cgi-bin/token', query.toString());
  const { access_token: token, expires_in: expiresIn } = answer;
  if (typeof token !== 'string' || !token || typeof expiresIn !== 'number')
    throw new WechatApiError('WeChat API /cgi-bin/token answered without access_token and expires_in');
  const lifetime = Math.max(expiresIn - TOKEN_MARGIN_S, expiresIn / 2);
  return { token, until: Date.now() + lifetime * 1000 };
}

async function accessToken(settings: WechatApiSettings, stale?: string): Promise<string> {
  const cacheKey = `${settings.apiBase} ${settings.appId}`;
  const cached = tokens.get(cacheKey);
  if (cached) {
    const held = await cached.catch(() => null);
    if (held && held.token !== stale && held.until > Date.now()) return held.token;
    // Another caller may have replaced the entry while this one waited; only the entry seen is dropped.
    if (tokens.get(cacheKey) === cached) tokens.delete(cacheKey);
    else return accessToken(settings, stale);
  }
  const fresh = fetchToken(settings);
  tokens.set(cacheKey, fresh);
  fresh.catch(() => tokens.get(cacheKey) === fresh && tokens.delete(cacheKey));
  return (await fresh).token;
}

/** A POST with the access token, retried once with a new token when the platform rejects the one it had. */
async function post(settings: WechatApiSettings, path: string, body: unknown): Promise<WechatAnswer> {
  const token = await accessToken(settings);
  try {
    return await call(settings, path, `access_token=${encodeURIComponent(token)}`, body);
  } catch (error) {
    if (!(error instanceof WechatApiError) || !TOKEN_INVALID.has(error.errcode ?? 0)) throw error;
    const renewed = await accessToken(settings, token);
    return call(settings, path, `access_token=${encodeURIComponent(renewed)}`, body);
  }
}

function requiredSettings(): WechatApiSettings {
  const settings = wechatApiSettings();
  if (!settings) throw new WechatApiError('The WeChat API needs WECHAT_APP_ID and WECHAT_APP_SECRET');
  return settings;
}

/** Replaces the account's menu; the platform's answer ({errcode: 0, errmsg: "ok"}). */
export function pushMenu(menu: WechatMenu, settings = requiredSettings()): Promise<WechatAnswer> {
  return post(settings, '/cgi-bin/menu/create', menu);
}

/**
 * Sends a follower a text as a customer-service message. The platform accepts these within 48 hours of
 * the follower's last message or menu click; later it answers errcode 45015, thrown like any other.
 */
export async function sendText(openId: string, text: string, settings = requiredSettings()): Promise<void> {
  await post(settings, '/cgi-bin/message/custom/send', {
    touser: openId,
    msgtype: 'text',
    text: { content: fitReply(text, WECHAT_REPLY_LIMIT) },
  });
}
