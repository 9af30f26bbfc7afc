/**
 * "Buy Pro" in a chat: the tiers side by side and the follower's requests, or, with details
 * ("pro [abcd] 5000 what for"), the same upgrade request the portal's /upgrade form files, marked with
 * the channel so staff see where it came from and the decision is sent back there (lib/channels/notify.ts).
 */

import { config } from '../config.ts';
import { PortalInputError, type Viewer } from '../portal/access.ts';
import { formatCount, formatUtc } from '../portal/format.ts';
import { myUpgradeRequests, requestUpgrade, tierComparison, upgradeableKeys } from '../portal/upgrades.ts';
import { isFollowerAccount } from './bindings.ts';
import { portalLink } from './links.ts';
import type { Texts } from './texts.ts';
import { CHANNEL_LABELS, type ConversationContext, type Follower } from './types.ts';

/** "[abcd] 5000 what for": an optional key ending, the calls per day (commas allowed), the use case. */
const DETAILS = /^(?:(\w{4})\s+)?(\d[\d,]*)\s+(\S[\s\S]*)$/;

export async function upgradeReply(
  context: ConversationContext,
  follower: Follower,
  viewer: Viewer,
  details: string,
  t: Texts,
): Promise<string> {
  const { db } = context;
  const [keys, requests] = await Promise.all([upgradeableKeys(db, viewer, context.now), myUpgradeRequests(db, viewer)]);
  const parsed = DETAILS.exec(details.trim());
  if (!parsed) return overview(context, viewer, keys, requests, t);
  const [, ending, calls, useCase] = parsed;
  const chosen = ending ? keys.filter((k) => k.display.endsWith(ending)) : keys;
  if (!keys.length) return (await hasProKey(context, viewer)) ? t.alreadyPro : t.noUpgradeableKey;
  if (chosen.length !== 1) return whichKey(keys, t);
  const key = chosen[0];
  const pending = requests.find((r) => r.status === 'pending' && r.key.id === key.id);
  if (pending) return t.requestPending(key.display, formatUtc(pending.createdAt));
  try {
    await requestUpgrade(db, viewer, {
      keyId: key.id,
      useCase,
      expectedDailyCalls: Number(calls.replace(/,/g, '')),
      contact: contactFor(viewer, follower),
      channel: follower.channel,
    });
  } catch (error) {
    // The portal's own checks (a too long use case, a count out of range): their message says what to change.
    if (error instanceof PortalInputError) return error.message;
    throw error;
  }
  return t.requestFiled(key.display);
}

/** Tiers, the follower's pending request or latest decision, and how to ask. */
async function overview(
  context: ConversationContext,
  viewer: Viewer,
  keys: Awaited<ReturnType<typeof upgradeableKeys>>,
  requests: Awaited<ReturnType<typeof myUpgradeRequests>>,
  t: Texts,
): Promise<string> {
  const { free, pro } = await tierComparison(context.db);
  const lines = [
    t.tiers(
      t.tierLimits(formatCount(free.dailyQuota), free.ratePerSecond),
      t.tierLimits(formatCount(pro.dailyQuota), pro.ratePerSecond),
    ),
  ];
  for (const request of requests.filter((r) => r.status === 'pending'))
    lines.push(t.requestPending(request.key.display, formatUtc(request.createdAt)));
  const decided = requests.find((r) => r.status !== 'pending');
  if (decided?.decidedAt)
    lines.push(
      t.lastDecision(
        decided.key.display,
        decided.status as 'approved' | 'declined',
        formatUtc(decided.decidedAt),
        decided.decisionNote,
      ),
    );
  if (keys.length) lines.push(t.howToRequest(t.requestExample));
  if (keys.length > 1) lines.push(whichKey(keys, t));
  if (!keys.length) lines.push((await hasProKey(context, viewer)) ? t.alreadyPro : t.noUpgradeableKey);
  const page = config().contactUrl || portalLink(context, '/upgrade');
  if (page) lines.push(t.contactPage(page));
  return lines.join('\n\n');
}

/** Asks which key, with the example request written for the first one ("pro Vp0x 5000 …"). */
function whichKey(keys: { display: string }[], t: Texts): string {
  return t.whichKey(`${keys[0].display.slice(-4)} ${t.requestExample.replace(/^\S+\s/, '')}`);
}

async function hasProKey(context: ConversationContext, viewer: Viewer): Promise<boolean> {
  return (await context.db.apiKey.count({ where: { ownerId: viewer.id, tierId: 'pro', disabledAt: null } })) > 0;
}

/** What staff read as the request's contact: the chat, where the decision is sent, and the email when there is one. */
function contactFor(viewer: Viewer, follower: Follower): string {
  const chat = `${CHANNEL_LABELS[follower.channel]} chat (the decision is sent there)`;
  return isFollowerAccount(viewer.email) ? chat : `${chat}, ${viewer.email}`;
}
