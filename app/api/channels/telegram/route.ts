/** Telegram's webhook for the bot; the logic is in lib/channels/telegram/webhook.ts. */
import { answerTelegramWebhook, telegramWebhookOtherMethod } from '@/lib/channels/telegram/webhook.ts';
import { config } from '@/lib/config.ts';
import { getDb } from '@/lib/db/client.ts';

export const dynamic = 'force-dynamic';

export function POST(request: Request): Promise<Response> {
  return answerTelegramWebhook(request, config().telegram, getDb());
}

const otherMethod = () => telegramWebhookOtherMethod(config().telegram);
export const GET = otherMethod;
export const HEAD = otherMethod;
export const PUT = otherMethod;
export const PATCH = otherMethod;
export const DELETE = otherMethod;
export const OPTIONS = otherMethod;
