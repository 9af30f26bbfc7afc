/**
 * The Telegram bot's settings. TELEGRAM_BOT_TOKEN switches the bot on; without it the webhook answers
 * 404 and nothing here is needed. A bad value fails loudly, naming the variable: the server checks these
 * at start (server.ts), so a misconfigured bot is found before Telegram's first delivery.
 */
import type { Language } from '../types.ts';

export interface TelegramSettings {
  /** The token @BotFather gave, "<bot id>:<secret>"; it is part of every Bot API URL. */
  token: string;
  /** What Telegram sends in X-Telegram-Bot-Api-Secret-Token (setWebhook's secret_token). */
  webhookSecret: string;
  /** The language of replies and of the command list: English by default, Chinese with 'zh'. */
  language: Language;
  /** The Bot API server, without a trailing slash; tests point it at a local stand-in. */
  apiRoot: string;
}

export const DEFAULT_TELEGRAM_API_ROOT = 'https://api.telegram.org';
/** As setWebhook documents secret_token: 1-256 characters, only A-Z, a-z, 0-9, _ and -. */
const SECRET_TOKEN = /^[A-Za-z0-9_-]{1,256}$/;
/** As @BotFather hands them out: the bot's numeric id, a colon, then the secret part. */
const BOT_TOKEN = /^\d+:[A-Za-z0-9_-]+$/;

/** The settings from `env`, or null when TELEGRAM_BOT_TOKEN is unset (the bot is off). */
export function readTelegramSettings(env: Record<string, string | undefined> = process.env): TelegramSettings | null {
  const token = env.TELEGRAM_BOT_TOKEN;
  if (!token) return null;
  // The token is a credential: the message describes it without quoting it.
  if (!BOT_TOKEN.test(token))
    throw new Error(
      'TELEGRAM_BOT_TOKEN must be the token @BotFather gave, such as 123456789:AAE…, with nothing around it',
    );
  const webhookSecret = env.TELEGRAM_WEBHOOK_SECRET;
  if (!webhookSecret)
    throw new Error(
      'TELEGRAM_WEBHOOK_SECRET must be set when TELEGRAM_BOT_TOKEN is: without it anyone could post updates to /api/channels/telegram. Use 1 to 256 characters of A-Z, a-z, 0-9, "_" and "-" (e.g. openssl rand -hex 32).',
    );
  if (!SECRET_TOKEN.test(webhookSecret))
    throw new Error(
      `TELEGRAM_WEBHOOK_SECRET must be 1 to 256 characters of A-Z, a-z, 0-9, "_" and "-" (Telegram's rule for secret_token); ${webhookSecret.length > 256 ? `it is ${webhookSecret.length} characters long` : 'it holds other characters'}.`,
    );
  const language = env.TELEGRAM_LANGUAGE || 'en';
  if (language !== 'en' && language !== 'zh') throw new Error(`TELEGRAM_LANGUAGE must be en or zh, got "${language}"`);
  return { token, webhookSecret, language, apiRoot: apiRoot(env.TELEGRAM_API_ROOT) };
}

function apiRoot(raw: string | undefined): string {
  if (!raw) return DEFAULT_TELEGRAM_API_ROOT;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(
      `TELEGRAM_API_ROOT must be an absolute http(s) URL such as ${DEFAULT_TELEGRAM_API_ROOT}, got "${raw}"`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`TELEGRAM_API_ROOT must be an http(s) URL such as ${DEFAULT_TELEGRAM_API_ROOT}, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

let cached: TelegramSettings | null | undefined;
/** The process's settings, read once (null: the bot is off). */
export function telegramSettings(): TelegramSettings | null {
  if (cached === undefined) cached = readTelegramSettings();
  return cached;
}
