/**
 * What the account answers, whichever door a follower comes through: the reply text for an intent, in
 * the channel's language and within its length limit. Keys, usage and upgrade requests are the portal's
 * own services (lib/portal, lib/usage) called as the bound account, so the chat, the portal and the CLI
 * show the same numbers and file the same requests.
 */
import { config } from '../config.ts';
import { displayKey } from '../keys/format.ts';
import { DailyKeyCapError } from '../keys/store.ts';
import { containsSecretFragment } from '../ops/redact.ts';
import type { Viewer } from '../portal/access.ts';
import { formatUtc } from '../portal/format.ts';
import { activeKeyCount, createMyKey, listMyKeys, MAX_ACTIVE_KEYS } from '../portal/keys.ts';
import { type KeyReport, keyReport } from '../usage/key-report.ts';
import {
  boundViewer,
  createFollowerAccount,
  followerActor,
  isFollowerAccount,
  redeemBindCode,
  unbindFollower,
} from './bindings.ts';
import { upgradeReply } from './chat-upgrade.ts';
import { portalLink } from './links.ts';
import { readText } from './read-text.ts';
import { type Texts, textsFor } from './texts.ts';
import { CHANNEL_LABELS, type ConversationContext, type Follower, type Intent } from './types.ts';
import { fitBlocks, keyBlocks } from './usage-text.ts';

/** Keys whose reports are read for one reply: more would not fit in a message anyway. */
const KEYS_REPORTED = 5;

export async function converse(context: ConversationContext, follower: Follower, intent: Intent): Promise<string> {
  const t = textsFor(context.language, follower.channel);
  if (intent.kind === 'text' && containsSecretFragment(intent.text)) return t.secretInMessage;
  const asked = intent.kind === 'text' ? readText(intent.text) : intent;
  const { db } = context;
  switch (asked.kind) {
    case 'welcome': {
      const viewer = await boundViewer(db, follower);
      return [
        t.welcome,
        viewer ? t.bound(accountName(viewer, follower)) : t.notBound(portalLink(context, '/account')),
        t.help,
      ].join('\n\n');
    }
    case 'help':
      return asked.understood ? t.help : `${t.notUnderstood}\n${t.help}`;
    case 'bind':
      return bind(context, follower, asked.code, t);
    case 'unbind':
      return (await unbindFollower(db, follower)) ? t.unbound : t.unbindNothing;
    case 'new_key':
      return newKey(context, follower, t);
    case 'key_usage': {
      const viewer = await boundViewer(db, follower);
      if (!viewer) return t.notBound(portalLink(context, '/account'));
      return keyUsage(context, viewer, asked.part, t);
    }
    case 'upgrade': {
      const viewer = await boundViewer(db, follower);
      if (!viewer) return t.notBound(portalLink(context, '/account'));
      return upgradeReply(context, follower, viewer, asked.details, t);
    }
    case 'contact':
      return t.contact(config().contactUrl ?? null, portalLink(context, '/upgrade'));
  }
}

/** How a reply names the account: its email, or the chat it was made in (such accounts have no email). */
function accountName(viewer: Viewer, follower: Follower): string {
  return isFollowerAccount(viewer.email) ? CHANNEL_LABELS[follower.channel] : viewer.email;
}

async function bind(context: ConversationContext, follower: Follower, code: string, t: Texts): Promise<string> {
  const outcome = await redeemBindCode(context.db, follower, code, context.now);
  switch (outcome.kind) {
    case 'bound':
      return t.bound(accountName(outcome.viewer, follower));
    case 'already_bound':
      return t.alreadyBound(accountName(outcome.viewer, follower));
    case 'bound_elsewhere':
      return t.boundElsewhere;
    case 'no_such_code':
      return t.noSuchCode;
    case 'too_many_tries':
      return t.tooManyTries(formatUtc(outcome.retryAt));
  }
}

/** A free key for the follower's account, made first when they have none; the secret is in this reply only. */
async function newKey(context: ConversationContext, follower: Follower, t: Texts): Promise<string> {
  const { db } = context;
  let viewer = await boundViewer(db, follower);
  const made = viewer ? null : await createFollowerAccount(db, follower);
  // null from createFollowerAccount: a second tap bound the follower first; its account is the one.
  viewer ??= made ?? (await boundViewer(db, follower));
  if (!viewer) throw new Error('A follower account was neither created nor found.');
  // The portal's own count, asked first so the refusal is in the follower's language.
  if ((await activeKeyCount(db, viewer, context.now)) >= MAX_ACTIVE_KEYS) return t.tooManyKeys(MAX_ACTIVE_KEYS);
  let created: Awaited<ReturnType<typeof createMyKey>>;
  try {
    created = await createMyKey(
      db,
      viewer,
      { name: CHANNEL_LABELS[follower.channel], expiryDays: null },
      followerActor(viewer, follower),
      context.now,
    );
  } catch (error) {
    if (error instanceof DailyKeyCapError) return t.tooManyKeysToday(error.cap, formatUtc(error.nextAt));
    throw error;
  }
  const { key, secret } = created;
  const issued = t.newKey(displayKey(key), secret, portalLink(context, '/mcp'));
  return made ? `${t.accountCreated}\n${issued}` : issued;
}

/** Each working key's tier, quota, expiry, then today's calls, the trend and the last calls, as room allows. */
async function keyUsage(
  context: ConversationContext,
  viewer: Viewer,
  part: 'all' | 'keys' | 'usage',
  t: Texts,
): Promise<string> {
  const { db } = context;
  const now = context.now ?? Date.now();
  const list = await listMyKeys(db, viewer, now);
  const active = list.keys.filter((k) => k.status === 'active');
  if (!active.length) return t.noActiveKeys;
  const busiestFirst = [...active].sort((a, b) => b.usedToday - a.usedToday).slice(0, KEYS_REPORTED);
  const rows = await db.apiKey.findMany({ where: { id: { in: busiestFirst.map((k) => k.id) } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const reports = await Promise.all(
    busiestFirst.flatMap((k) => byId.get(k.id) ?? []).map((key) => keyReport(db, key, now)),
  );
  // An account made in the chat has no portal sign-in: a link to its key pages would lead nowhere.
  const linked = isFollowerAccount(viewer.email) ? { ...context, portalUrl: undefined } : context;
  const single = reports.length === 1 && active.length === 1;
  const blocks = single
    ? singleKeyBlocks(reports[0], part, t)
    : severalKeysBlocks(reports, active.length, part, t, linked);
  const rest = portalLink(linked, single ? `/keys/${reports[0].id}` : '/keys');
  return fitBlocks(blocks, rest ? t.more(rest) : null, context.limit);
}

function singleKeyBlocks(report: KeyReport, part: 'all' | 'keys' | 'usage', t: Texts): string[] {
  const { head, details } = keyBlocks(report, t);
  if (part === 'keys') return [head];
  if (part === 'usage') return [t.keyLine(report.display, report.name, report.tier), ...details];
  return [head, ...details];
}

/** Every key's head first (with its own page), how many keys are left out, then each key's usage, busiest first. */
function severalKeysBlocks(
  reports: KeyReport[],
  activeCount: number,
  part: 'all' | 'keys' | 'usage',
  t: Texts,
  context: ConversationContext,
) {
  const heads =
    part === 'usage'
      ? []
      : reports.map((report) => {
          const page = portalLink(context, `/keys/${report.id}`);
          const { head } = keyBlocks(report, t);
          return page ? `${head}\n${page}` : head;
        });
  const usage =
    part === 'keys' ? [] : reports.map((report) => [report.display, ...keyBlocks(report, t).details].join('\n'));
  // Keys left out are said before the usage blocks, which are the first to be cut for room.
  const others = activeCount > reports.length ? [t.otherKeys(activeCount - reports.length)] : [];
  return [t.keysHeading(activeCount), ...heads, ...others, ...usage];
}
