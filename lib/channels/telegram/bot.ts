/**
 * The Telegram door on the channel seam: grammY turns an update into a command or text, the command
 * table (commands.ts) into an Intent, lib/channels/conversation.ts into the reply, and sendMessage
 * carries it to the follower's private chat.
 *
 * Only private chats are answered. Replies hold account data (keys, usage, a new key's secret), and a
 * group would show them to everyone in it; a command addressed to the bot in a group gets a note asking
 * to message the bot privately, and anything else there is ignored (in a group the bot would otherwise
 * answer every message it sees).
 */
import { Bot, type Context, GrammyError } from 'grammy';
import type { TelegramSettings } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { log } from '../../ops/log.ts';
import { conversationContext } from '../context.ts';
import { converse } from '../conversation.ts';
import { answerOnce } from '../deliveries.ts';
import type { ConversationContext, Follower, Intent, Language } from '../types.ts';
import { clientOptions, fitReply, PLAIN_TEXT } from './api.ts';
import { TELEGRAM_COMMANDS } from './commands.ts';

/** grammY's context plus the text this update was answered with, which answerOnce keeps for repeats. */
export type TelegramContext = Context & { answered?: string };

const PRIVATE_ONLY: Record<Language, (username: string) => string> = {
  en: (username) =>
    `I answer in a private chat only, so your keys stay yours: open https://t.me/${username} and send the command there.`,
  zh: (username) => `为保护您的密钥，我只在私聊中回复：请打开 https://t.me/${username} 并在那里发送命令。`,
};

/**
 * Telegram refused the message for good (the user blocked the bot, the chat is gone): delivering the
 * update again would not change that. Rate limits (429) and Telegram's own failures (5xx) pass.
 */
function refusedForGood(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code < 500 && error.error_code !== 429;
}

/** Sends `text` as the answer to this update; a refusal for good is logged and counts as answered. */
async function send(ctx: TelegramContext, text: string, intent: Intent['kind'] | 'private_only'): Promise<void> {
  const reply = fitReply(text);
  try {
    await ctx.reply(reply, PLAIN_TEXT);
  } catch (error) {
    if (!refusedForGood(error)) throw error;
    log('warn', 'telegram reply refused', {
      updateId: ctx.update.update_id,
      intent,
      error: (error as GrammyError).description,
    });
  }
  ctx.answered = reply;
  log('info', 'telegram update answered', { updateId: ctx.update.update_id, intent });
}

/**
 * The bot, answering through `db`. It needs `await bot.init()` before its first update: grammY asks
 * getMe once for the bot's username, which command matching (/key@name) and the group note use; the
 * webhook keeps one initialised bot per process (webhook.ts), so an update costs no extra round trip.
 */
export function createTelegramBot(settings: TelegramSettings, db: Db): Bot<TelegramContext> {
  const bot = new Bot<TelegramContext>(settings.botToken, { client: clientOptions(settings) });
  // Every door's context, in the language this bot was made with (the server's is config().telegram's).
  const conversation = (): ConversationContext => ({
    ...conversationContext(db, 'telegram'),
    language: settings.language,
  });

  // Telegram delivers an update again until it gets a 200: each is acted on once, on any instance.
  bot.use(async (ctx, next) => {
    const { repeated } = await answerOnce(db, 'telegram', `update:${ctx.update.update_id}`, async () => {
      await next();
      return ctx.answered ?? '';
    });
    if (repeated) log('info', 'telegram update repeated', { updateId: ctx.update.update_id });
  });

  const answer = async (ctx: TelegramContext, intent: Intent) => {
    if (!ctx.from) return;
    const follower: Follower = { channel: 'telegram', id: String(ctx.from.id) };
    await send(ctx, await converse(conversation(), follower, intent), intent.kind);
  };

  const inPrivate = bot.chatType('private');
  for (const { command, intent } of TELEGRAM_COMMANDS)
    inPrivate.command(command, (ctx) => answer(ctx, intent(ctx.match.trim(), ctx.msg.text ?? '')));
  // Text that is no command of ours; a photo or sticker counts as saying nothing (the conversation's help).
  inPrivate.on('message', (ctx) => answer(ctx, { kind: 'text', text: ctx.msg.text ?? '' }));

  bot.chatType(['group', 'supergroup']).command(
    TELEGRAM_COMMANDS.map((c) => c.command),
    (ctx) => send(ctx, PRIVATE_ONLY[settings.language](ctx.me.username), 'private_only'),
  );
  return bot;
}
