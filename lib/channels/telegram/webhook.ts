/**
 * POST /api/channels/telegram, where Telegram delivers updates (setWebhook). Before anything is read the
 * secret-token header must match TELEGRAM_WEBHOOK_SECRET; then the body is read up to a cap, parsed, and
 * handed to the bot (bot.ts), which answers it with sendMessage and acts on each update_id once.
 * Telegram only reads the status: 200 means done; anything else makes it deliver the update again later.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Bot } from 'grammy';
import type { TelegramSettings } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { bodyCapFor, tooLargeMessage } from '../../http/body-caps.ts';
import { readTextCapped, TOO_LARGE } from '../../http/read-text-capped.ts';
import { log } from '../../ops/log.ts';
import { createLogSampler } from '../../ops/log-sampler.ts';
import { createTelegramBot, type TelegramContext } from './bot.ts';

export const TELEGRAM_WEBHOOK_PATH = '/api/channels/telegram';
export const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/** Anyone can post without the secret, as fast as they like: the log keeps a sample per reason. */
const refusals = createLogSampler();

function json(status: number, error: string, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error, message }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/** Compared as SHA-256 digests, so neither the length nor the first differing byte shows in the timing. */
function secretMatches(sent: string | null, expected: string): boolean {
  if (sent === null) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(sent), digest(expected));
}

/** An object with a whole, non-negative update_id: the one field this door relies on before grammY. */
function isUpdate(body: unknown): body is { update_id: number } {
  const id = (body as { update_id?: unknown } | null)?.update_id;
  return typeof body === 'object' && !Array.isArray(body) && Number.isSafeInteger(id) && (id as number) >= 0;
}

/** One bot per process (per settings); its getMe is asked once, and asked again after a failure. */
let shared: { settings: TelegramSettings; bot: Promise<Bot<TelegramContext>> } | undefined;
function sharedBot(settings: TelegramSettings, db: Db): Promise<Bot<TelegramContext>> {
  if (shared?.settings !== settings) {
    const bot = createTelegramBot(settings, db);
    const ready = bot.init().then(() => bot);
    shared = { settings, bot: ready };
    ready.catch(() => {
      if (shared?.bot === ready) shared = undefined;
    });
  }
  return shared.bot;
}

function notEnabled(): Response {
  return json(404, 'not_found', 'The Telegram bot is not enabled on this server.');
}

/** Every method but POST: 404 while the bot is off, as for any unknown path; else 405. */
export function telegramWebhookOtherMethod(settings: TelegramSettings | undefined): Response {
  if (!settings) return notEnabled();
  return json(405, 'method_not_allowed', `Telegram delivers updates with POST ${TELEGRAM_WEBHOOK_PATH}.`, {
    allow: 'POST',
  });
}

/** `settings` is config().telegram: undefined while the bot is off. */
export async function answerTelegramWebhook(
  request: Request,
  settings: TelegramSettings | undefined,
  db: Db,
): Promise<Response> {
  if (!settings) return notEnabled();
  if (!secretMatches(request.headers.get(SECRET_HEADER), settings.webhookSecret)) {
    const reason = request.headers.has(SECRET_HEADER) ? 'wrong secret' : 'no secret';
    refusals.log(`telegram webhook: ${reason}`, 'warn', 'telegram webhook refused', { reason });
    return json(401, 'unauthorized', `The ${SECRET_HEADER} header is missing or wrong.`);
  }
  const cap = bodyCapFor(TELEGRAM_WEBHOOK_PATH);
  const text = await readTextCapped(request, cap.bytes, { fatal: true }).catch(() => null);
  if (text === TOO_LARGE) return json(413, 'payload_too_large', tooLargeMessage(cap));
  let update: unknown;
  try {
    if (text === null) throw new Error('not UTF-8');
    update = JSON.parse(text);
  } catch {
    return json(400, 'parse_error', 'The body is not UTF-8 JSON.');
  }
  if (!isUpdate(update))
    return json(400, 'invalid_update', 'The body is not a Telegram Update: it needs a whole, non-negative update_id.');

  try {
    const bot = await sharedBot(settings, db);
    // Only Telegram holds the secret, so past update_id the body is taken as the Update the Bot API
    // documents; one that is not fails inside grammY and is answered 500 below.
    await bot.handleUpdate(update as Parameters<typeof bot.handleUpdate>[0]);
  } catch (error) {
    // A BotError wraps what the middleware threw; its message is grammY's, never the token.
    const cause = (error as { error?: unknown }).error ?? error;
    log('error', 'telegram update failed', {
      updateId: update.update_id,
      error: cause instanceof Error ? cause.message : String(cause),
    });
    return json(500, 'internal_error', 'The update could not be answered now; Telegram will deliver it again.');
  }
  return new Response(null, { status: 200, headers: { 'cache-control': 'no-store' } });
}
