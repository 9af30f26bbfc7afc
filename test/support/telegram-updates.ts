/**
 * Updates as Telegram delivers them to a webhook (https://core.telegram.org/bots/api#update): a text
 * message in a private chat or a group, with the bot_command entity Telegram marks a leading command with.
 */
import type { Chat, Update } from 'grammy/types';

let lastUpdateId = 700_000;

/** A fresh update_id, larger than any before, as Telegram numbers them. */
export function nextUpdateId(): number {
  lastUpdateId += 1;
  return lastUpdateId;
}

function message(chat: Chat.PrivateChat | Chat.SupergroupChat, userId: number, text: string) {
  const command = /^\/\S+/.exec(text)?.[0];
  return {
    message_id: lastUpdateId,
    date: Math.floor(Date.now() / 1000),
    chat,
    from: { id: userId, is_bot: false, first_name: 'Ada', language_code: 'en' },
    text,
    ...(command ? { entities: [{ type: 'bot_command' as const, offset: 0, length: command.length }] } : {}),
  };
}

/** `text` from the user `userId` in their private chat with the bot (whose id is the user's). */
export function privateText(userId: number, text: string, updateId = nextUpdateId()): Update {
  return { update_id: updateId, message: message({ id: userId, type: 'private', first_name: 'Ada' }, userId, text) };
}

/** `text` from the user `userId` in the group `chatId` (negative, as Telegram's group ids are). */
export function groupText(chatId: number, userId: number, text: string, updateId = nextUpdateId()): Update {
  return {
    update_id: updateId,
    message: message({ id: chatId, type: 'supergroup', title: 'Chemists' }, userId, text),
  };
}
