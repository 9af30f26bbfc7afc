/**
 * Platforms retry a message or event they think went unanswered (WeChat three times, 5 s apart; Telegram
 * until it gets a 200). Each delivery is claimed by its id in the database before it is answered, so
 * across every instance it is acted on once; a retry gets the reply the first delivery produced, or an
 * empty answer while that one is still being worked out. A new key's secret is kept out of the stored
 * copy: a retry shows its display form, and the secret lives only in the reply that was sent.
 */
import type { Db } from '../db/client.ts';
import { redactSecretFragments } from '../ops/redact.ts';
import type { ChannelName } from './types.ts';

/** Longer than any platform retries for; rows older than this are deleted as new ones arrive. */
const KEPT_MS = 24 * 3600_000;
const PRUNE_EVERY_MS = 10 * 60_000;
let lastPrune = 0;

export type Answered = { reply: string; repeated: false } | { reply: string | null; repeated: true };

/**
 * Answers delivery `deliveryId` of `channel` with `produce()` the first time; a repeat of it gets the
 * stored reply, secrets cut (null while the first is still being produced). A produce() that throws releases the
 * claim, so the platform's retry can try again.
 */
export async function answerOnce(
  db: Db,
  channel: ChannelName,
  deliveryId: string,
  produce: () => Promise<string>,
  now = Date.now(),
): Promise<Answered> {
  if (now - lastPrune > PRUNE_EVERY_MS) {
    lastPrune = now;
    await db.channelDelivery.deleteMany({ where: { createdAt: { lt: new Date(now - KEPT_MS) } } });
  }
  try {
    await db.channelDelivery.create({ data: { channel, deliveryId, createdAt: new Date(now) } });
  } catch (error) {
    if ((error as { code?: unknown })?.code !== 'P2002') throw error;
    const first = await db.channelDelivery.findUnique({ where: { channel_deliveryId: { channel, deliveryId } } });
    return { reply: first?.reply ?? null, repeated: true };
  }
  try {
    const reply = await produce();
    await db.channelDelivery.update({
      where: { channel_deliveryId: { channel, deliveryId } },
      data: { reply: redactSecretFragments(reply) },
    });
    return { reply, repeated: false };
  } catch (error) {
    await db.channelDelivery.deleteMany({ where: { channel, deliveryId } });
    throw error;
  }
}
