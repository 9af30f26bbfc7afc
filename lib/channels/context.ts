import { config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { type ChannelName, type ConversationContext, TELEGRAM_REPLY_LIMIT, WECHAT_REPLY_LIMIT } from './types.ts';

/** How a door's replies are written: its language setting, its length limit, links to PUBLIC_URL. */
export function conversationContext(db: Db, channel: ChannelName): ConversationContext {
  const settings = channel === 'wechat' ? config().wechat : config().telegram;
  return {
    db,
    language: settings?.language ?? (channel === 'wechat' ? 'zh' : 'en'),
    limit: channel === 'wechat' ? WECHAT_REPLY_LIMIT : TELEGRAM_REPLY_LIMIT,
    portalUrl: config().publicUrl?.replace(/\/+$/, ''),
  };
}
