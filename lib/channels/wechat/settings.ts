/**
 * The WeChat Official Account's settings, read from the environment at each use (parsing them is
 * cheaper than a request, and a changed value needs no restart). A bad value is a WechatSettingsError
 * naming the variable: the route logs it and answers 500, the CLI prints it; nothing crashes in a loop.
 */
import type { Language } from '../types.ts';

export const DEFAULT_WECHAT_API_BASE = 'https://api.weixin.qq.com';
const LANGUAGES: readonly Language[] = ['zh', 'en'];
/** The platform's EncodingAESKey: 43 base64 characters, 32 bytes once "=" is appended. */
const ENCODING_AES_KEY = /^[A-Za-z0-9+/]{43}$/;

export class WechatSettingsError extends Error {}

/** What the platform API needs (the menu and customer-service messages). */
export interface WechatApiSettings {
  appId: string;
  appSecret: string;
  /** Without a trailing slash. */
  apiBase: string;
}

export interface WechatSettings {
  token: string;
  language: Language;
  /** Safe mode: the AES key decoded from WECHAT_ENCODING_AES_KEY, and the app id every message must carry. */
  crypto?: { aesKey: Buffer; appId: string };
  /** Set when WECHAT_APP_ID and WECHAT_APP_SECRET are: late replies go out as customer-service messages. */
  api?: WechatApiSettings;
}

type Env = Record<string, string | undefined>;

export function wechatLanguage(env: Env = process.env): Language {
  const raw = env.WECHAT_LANGUAGE || 'zh';
  if (!(LANGUAGES as readonly string[]).includes(raw))
    throw new WechatSettingsError(`WECHAT_LANGUAGE must be ${LANGUAGES.join(' or ')}, got "${raw}"`);
  return raw as Language;
}

function apiBase(env: Env): string {
  const raw = env.WECHAT_API_BASE || DEFAULT_WECHAT_API_BASE;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WechatSettingsError(`WECHAT_API_BASE must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new WechatSettingsError(`WECHAT_API_BASE must be an absolute http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/** The platform API's settings, or null when WECHAT_APP_ID or WECHAT_APP_SECRET is unset. */
export function wechatApiSettings(env: Env = process.env): WechatApiSettings | null {
  const appId = env.WECHAT_APP_ID;
  const appSecret = env.WECHAT_APP_SECRET;
  if (!appId || !appSecret) return null;
  return { appId, appSecret, apiBase: apiBase(env) };
}

function crypto(env: Env): WechatSettings['crypto'] {
  const encodingAesKey = env.WECHAT_ENCODING_AES_KEY;
  if (!encodingAesKey) return undefined;
  // The value is never echoed: it is a secret.
  if (!ENCODING_AES_KEY.test(encodingAesKey))
    throw new WechatSettingsError(
      `WECHAT_ENCODING_AES_KEY must be the 43 letters and digits the platform generates (base64), got ${encodingAesKey.length} characters`,
    );
  if (!env.WECHAT_APP_ID)
    throw new WechatSettingsError('WECHAT_ENCODING_AES_KEY (safe mode) needs WECHAT_APP_ID, the account’s AppID');
  return { aesKey: Buffer.from(`${encodingAesKey}=`, 'base64'), appId: env.WECHAT_APP_ID };
}

/** The endpoint's settings, or null when WECHAT_TOKEN is unset (the endpoint is off). */
export function wechatSettings(env: Env = process.env): WechatSettings | null {
  const token = env.WECHAT_TOKEN;
  if (!token) return null;
  // The platform allows 3 to 32 letters and digits; anything else could never match its signatures.
  if (!/^[A-Za-z0-9]{3,32}$/.test(token))
    throw new WechatSettingsError('WECHAT_TOKEN must be 3 to 32 letters and digits, as the platform accepts');
  return {
    token,
    language: wechatLanguage(env),
    crypto: crypto(env),
    api: wechatApiSettings(env) ?? undefined,
  };
}
