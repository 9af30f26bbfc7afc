/**
 * The door's settings in the form its code uses, derived from config().wechat (lib/config.ts reads and
 * validates the WECHAT_* variables at start): safe mode's AES key decoded, and the platform API's
 * credentials only when both WECHAT_APP_ID and WECHAT_APP_SECRET are set.
 */
import { config, type WechatSettings as WechatConfig } from '../../config.ts';

/** What the platform API needs (the menu and customer-service messages). */
export interface WechatApiSettings {
  appId: string;
  appSecret: string;
  /** Without a trailing slash. */
  apiBase: string;
}

export interface WechatSettings {
  token: string;
  /** Safe mode: the 32-byte key decoded from WECHAT_ENCODING_AES_KEY, and the AppID every message must carry. */
  crypto?: { aesKey: Buffer; appId: string };
  /** Late replies go out as customer-service messages when set. */
  api?: WechatApiSettings;
}

/** The platform API's settings, or null when WECHAT_APP_ID or WECHAT_APP_SECRET is unset. */
export function wechatApiSettings(wechat: WechatConfig | undefined = config().wechat): WechatApiSettings | null {
  if (!wechat?.appId || !wechat.appSecret) return null;
  return { appId: wechat.appId, appSecret: wechat.appSecret, apiBase: wechat.apiBase };
}

/** The endpoint's settings, or null when WECHAT_TOKEN is unset (the door is closed). */
export function wechatSettings(wechat: WechatConfig | undefined = config().wechat): WechatSettings | null {
  if (!wechat) return null;
  const { token, encodingAesKey, appId } = wechat;
  return {
    token,
    // The platform's EncodingAESKey is base64 without its final "=": 43 characters, 32 bytes.
    crypto: encodingAesKey && appId ? { aesKey: Buffer.from(`${encodingAesKey}=`, 'base64'), appId } : undefined,
    api: wechatApiSettings(wechat) ?? undefined,
  };
}
