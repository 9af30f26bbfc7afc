/**
 * The bot's commands: what each one asks the conversation for, and the menu Telegram shows for them
 * (setMyCommands, pushed by `cli channel telegram webhook --push`). One table, so the menu cannot offer
 * a command the bot does not answer.
 */
import { readBindCode } from '../bindings.ts';
import type { Intent, Language } from '../types.ts';

interface TelegramCommand {
  /** As typed after "/": Telegram allows 1-32 characters of a-z, 0-9 and "_". */
  command: string;
  /** The menu line in each language (1-256 characters). */
  description: Record<Language, string>;
  /** The intent for `args`, what followed the command, and `text`, the whole message. */
  intent: (args: string, text: string) => Intent;
}

export const TELEGRAM_COMMANDS: readonly TelegramCommand[] = [
  {
    command: 'start',
    description: { en: 'Start: what this bot does', zh: '开始：本机器人能做什么' },
    // A deep link t.me/<bot>?start=<bind code> opens the chat with the code: it binds right away.
    intent: (args) => (readBindCode(args) ? { kind: 'bind', code: args } : { kind: 'welcome' }),
  },
  {
    command: 'key',
    description: { en: 'My keys: tier, quota, expiry', zh: '我的密钥：等级、配额、有效期' },
    intent: () => ({ kind: 'key_usage', part: 'keys' }),
  },
  {
    command: 'usage',
    description: { en: 'My usage: today, the last 7 days, the last calls', zh: '我的用量：今天、近 7 天、最近调用' },
    intent: () => ({ kind: 'key_usage', part: 'usage' }),
  },
  {
    command: 'pro',
    description: { en: 'Ask for Pro: /pro what you need', zh: '申请 Pro：/pro 您的需求' },
    intent: (args) => ({ kind: 'upgrade', details: args }),
  },
  {
    command: 'bind',
    description: {
      en: 'Link your portal account: /bind CODE from /account',
      zh: '绑定门户账号：/bind 绑定码（见 /account）',
    },
    intent: (args) => ({ kind: 'bind', code: args }),
  },
  {
    command: 'unbind',
    description: { en: 'Unlink your portal account', zh: '解除绑定门户账号' },
    intent: () => ({ kind: 'unbind' }),
  },
  {
    command: 'newkey',
    description: { en: 'No account yet? Get one and a free key', zh: '还没有账号？创建账号并领取免费密钥' },
    intent: () => ({ kind: 'new_key' }),
  },
  {
    command: 'contact',
    description: { en: 'Contact customer service', zh: '联系客服' },
    intent: () => ({ kind: 'contact' }),
  },
  {
    command: 'help',
    description: { en: 'What you can ask', zh: '帮助' },
    // The conversation reads command words in text, "/help" among them.
    intent: (_args, text) => ({ kind: 'text', text }),
  },
];

/** The command list for setMyCommands, in the bot's language; /start is left out, Telegram offers it anyway. */
export function commandMenu(language: Language): { command: string; description: string }[] {
  return TELEGRAM_COMMANDS.filter((c) => c.command !== 'start').map((c) => ({
    command: c.command,
    description: c.description[language],
  }));
}
