/**
 * Talking to the Bot API: the client options every call uses, how a reply is fitted to a message, and
 * sendText for messages nobody asked for (lib/channels/notify.ts tells a follower support's decision).
 */
import { Api, type ApiClientOptions } from 'grammy';
import { config, type TelegramSettings } from '../../config.ts';
import { TELEGRAM_REPLY_LIMIT } from '../types.ts';

/**
 * grammY waits up to 500 s for an API call by default; a reply is sent while Telegram waits for the
 * webhook's answer, so a stuck call gives up well before Telegram does and the update is redelivered.
 */
const API_TIMEOUT_SECONDS = 10;

export function clientOptions(settings: TelegramSettings): ApiClientOptions {
  return { apiRoot: settings.apiRoot, timeoutSeconds: API_TIMEOUT_SECONDS };
}

/**
 * sendMessage's options for every reply: plain text (no parse_mode, so nothing in a reply is read as
 * markup), and no link preview, which would push the text itself off the screen.
 */
export const PLAIN_TEXT = { link_preview_options: { is_disabled: true } } as const;

/** The text cut to Telegram's 4096 characters (the conversation already keeps within it; this is the guard). */
export function fitReply(text: string): string {
  const { max, measure } = TELEGRAM_REPLY_LIMIT;
  if (measure(text) <= max) return text;
  let cut = text.slice(0, max - 1);
  // Never end on half of a surrogate pair: Telegram refuses text that is not valid UTF-8.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * Sends `text` to a Telegram user in their private chat with the bot (its chat id is the user id).
 * Throws when the bot is not enabled, and grammY's GrammyError when Telegram refuses (the user blocked
 * the bot, say) or HttpError when it cannot be reached.
 */
export async function sendText(userId: string, text: string, settings = config().telegram): Promise<void> {
  if (!settings) throw new Error('The Telegram bot is not enabled: TELEGRAM_BOT_TOKEN is not set.');
  await new Api(settings.botToken, clientOptions(settings)).sendMessage(userId, fitReply(text), PLAIN_TEXT);
}
