/**
 * Support decided an upgrade request: every follower bound to the requester is told, in their door's
 * language, through the platform's send API (a WeChat customer-service message, a Telegram message).
 * Best effort, after the decision committed: a platform that refuses (WeChat allows such messages only
 * within 48 hours of the follower's last message) is logged, and the follower still sees the decision
 * on "buy Pro" and on the portal's /upgrade page.
 */
import { config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { displayKey } from '../keys/format.ts';
import { log } from '../ops/log.ts';
import { formatCount } from '../portal/format.ts';
import { bindingsOf } from './bindings.ts';
import { conversationContext } from './context.ts';
import { sendText as sendTelegramText } from './telegram/api.ts';
import { textsFor } from './texts.ts';
import type { ChannelName } from './types.ts';
import { sendText as sendWechatText } from './wechat/api.ts';

/** The door's send function, or null when the server cannot send on it (no app secret for WeChat). */
function senderFor(channel: ChannelName): ((followerId: string, text: string) => Promise<void>) | null {
  if (channel === 'wechat') return config().wechat?.appSecret ? sendWechatText : null;
  return config().telegram ? sendTelegramText : null;
}

/** Tells the requester's followers how their request `requestId` was decided; never throws. */
export async function announceDecision(db: Db, requestId: string): Promise<void> {
  try {
    const request = await db.upgradeRequest.findUnique({ where: { id: requestId }, include: { key: true } });
    if (!request || (request.status !== 'approved' && request.status !== 'declined')) return;
    const pro = await db.tier.findUniqueOrThrow({ where: { id: 'pro' } });
    const followers = await bindingsOf(db, request.userId);
    await Promise.all(
      followers.map(async ({ channel, externalId }) => {
        const send = senderFor(channel as ChannelName);
        if (!send) return;
        const t = textsFor(conversationContext(db, channel as ChannelName).language, channel as ChannelName);
        const text = t.decisionNotice(
          displayKey(request.key),
          request.status as 'approved' | 'declined',
          request.decisionNote,
          formatCount(pro.dailyQuota),
        );
        try {
          await send(externalId, text);
        } catch (error) {
          log('warn', 'upgrade decision not sent to a follower', {
            channel,
            request: requestId,
            error: (error as Error).message,
          });
        }
      }),
    );
  } catch (error) {
    log('error', 'upgrade decision announcement failed', { request: requestId, error: (error as Error).message });
  }
}
