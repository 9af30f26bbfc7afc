/** Telegram's webhook for the bot (issue 18); the logic is in lib/channels/telegram/webhook.ts. */
import { answerTelegramWebhook, telegramWebhookOtherMethod } from '@/lib/channels/telegram/webhook.ts';

export const dynamic = 'force-dynamic';

export function POST(request: Request): Promise<Response> {
  return answerTelegramWebhook(request);
}

export const GET = telegramWebhookOtherMethod;
export const HEAD = telegramWebhookOtherMethod;
export const PUT = telegramWebhookOtherMethod;
export const PATCH = telegramWebhookOtherMethod;
export const DELETE = telegramWebhookOtherMethod;
export const OPTIONS = telegramWebhookOtherMethod;
