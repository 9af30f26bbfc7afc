/**
 * The seam every messaging-app door shares. A channel adapter (lib/channels/wechat, lib/channels/telegram)
 * turns what its platform sends into an Intent from a Follower, asks lib/channels/conversation.ts for the
 * reply text, and sends that back the platform's way. Keys, usage and upgrades stay the portal's services.
 */
import type { Db } from '../db/client.ts';

export const CHANNELS = ['wechat', 'telegram'] as const;
export type ChannelName = (typeof CHANNELS)[number];

/** The channel's name as people know it, for the audit trail, the staff queue and replies. */
export const CHANNEL_LABELS: Record<ChannelName, string> = { wechat: 'WeChat', telegram: 'Telegram' };

/** A person in a messaging app, as the app names them to us: a WeChat OpenID, a Telegram user id. */
export interface Follower {
  channel: ChannelName;
  id: string;
}

export type Language = 'zh' | 'en';

/** What a follower asked for: a menu entry, a command, or text typed into the chat. */
export type Intent =
  /** Followed the account (WeChat "subscribe") or started the bot (Telegram /start). */
  | { kind: 'welcome' }
  /** "My key and usage" (MY_KEY_USAGE, /key, /usage): `part` narrows it for doors that split it. */
  | { kind: 'key_usage'; part: 'all' | 'keys' | 'usage' }
  /** "Buy Pro" (UPGRADE_PRO, /pro): `details` is what followed the command, "" from a menu click. */
  | { kind: 'upgrade'; details: string }
  /** "Contact" (CONTACT): how to reach customer service. */
  | { kind: 'contact' }
  /** A bind code (/bind CODE, or a code typed on its own). */
  | { kind: 'bind'; code: string }
  | { kind: 'unbind' }
  /** Create an account for this follower and its first free key. */
  | { kind: 'new_key' }
  /** Anything else typed: the conversation recognises codes and command words in it. */
  | { kind: 'text'; text: string };

/** How long a reply may be on this door: WeChat counts UTF-8 bytes, Telegram characters. */
export interface ReplyLimit {
  max: number;
  measure: (text: string) => number;
}

export const WECHAT_REPLY_LIMIT: ReplyLimit = { max: 2048, measure: (text) => Buffer.byteLength(text, 'utf8') };
export const TELEGRAM_REPLY_LIMIT: ReplyLimit = { max: 4096, measure: (text) => text.length };

export interface ConversationContext {
  db: Db;
  language: Language;
  limit: ReplyLimit;
  /** The portal's public address (PUBLIC_URL) for links, without a trailing slash; undefined: no links. */
  portalUrl?: string;
  now?: number;
}
