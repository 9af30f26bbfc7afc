/**
 * What a message or event from the platform asks for. Each one the account acts on has a delivery id
 * the platform keeps across its retries: `msg:<MsgId>` for messages, and for events (which have no
 * MsgId) the sender, CreateTime, Event and EventKey together, as the platform's retry advice says.
 */
import { quoteCallerText } from '../../http/caller-text.ts';
import type { Follower, Intent } from '../types.ts';
import { MENU_KEYS } from './menu.ts';

/** Ordinary messages other than text: answered with help (the conversation's answer to empty text). */
const OTHER_MESSAGE_TYPES = new Set(['image', 'voice', 'video', 'shortvideo', 'location', 'link', 'file']);

const CLICK_INTENTS: Record<string, Intent> = {
  [MENU_KEYS.keyUsage]: { kind: 'key_usage', part: 'all' },
  [MENU_KEYS.upgrade]: { kind: 'upgrade', details: '' },
  [MENU_KEYS.contact]: { kind: 'contact' },
};

export type Inbound =
  /** Answer `intent` to the follower; `account` is our ToUserName, the reply's FromUserName. */
  | { kind: 'answer'; deliveryId: string; follower: Follower; account: string; intent: Intent }
  /** Nothing to answer (unsubscribe); answered "success". */
  | { kind: 'silent'; deliveryId: string; what: string }
  /** Not something we read: answered "success", with `reason` in the log. */
  | { kind: 'ignored'; reason: string };

const ignored = (reason: string): Inbound => ({ kind: 'ignored', reason });

export function readInbound(fields: Record<string, string>): Inbound {
  const { ToUserName: account, FromUserName: sender, CreateTime: createTime, MsgType: type } = fields;
  const missing = (['ToUserName', 'FromUserName', 'CreateTime', 'MsgType'] as const).filter((name) => !fields[name]);
  if (missing.length) return ignored(`missing ${missing.join(', ')}`);
  const follower: Follower = { channel: 'wechat', id: sender };
  if (type === 'event') {
    const event = fields.Event;
    if (!event) return ignored('event without Event');
    const eventKey = fields.EventKey ?? '';
    const deliveryId = `event:${sender}:${createTime}:${event}:${eventKey}`;
    if (event === 'subscribe') return { kind: 'answer', deliveryId, follower, account, intent: { kind: 'welcome' } };
    if (event === 'unsubscribe') return { kind: 'silent', deliveryId, what: 'unsubscribe' };
    if (event === 'CLICK') {
      const intent = CLICK_INTENTS[eventKey];
      return intent
        ? { kind: 'answer', deliveryId, follower, account, intent }
        : ignored(`unknown menu key ${quoteCallerText(eventKey)}`);
    }
    return ignored(`unhandled event ${quoteCallerText(event)}`);
  }
  if (type !== 'text' && !OTHER_MESSAGE_TYPES.has(type)) return ignored(`unknown MsgType ${quoteCallerText(type)}`);
  if (!fields.MsgId) return ignored('message without MsgId');
  const text = type === 'text' ? (fields.Content ?? '') : '';
  return { kind: 'answer', deliveryId: `msg:${fields.MsgId}`, follower, account, intent: { kind: 'text', text } };
}
