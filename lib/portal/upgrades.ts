/**
 * Upgrade to Pro: a developer asks for one of their free keys to become Pro; staff approve (the key's
 * tier changes in the same transaction as the decision, with its audit event) or decline with a note
 * the developer reads on /upgrade.
 *
 * Approving a request whose key was disabled in the meantime still works: the decision is about the
 * owner's need, not the secret's state. A disabled key stays disabled (and keeps Pro if staff re-enable
 * it); a key that was reissued hands the upgrade to its current successor, the secret the owner uses now.
 */
import type { Actor } from '../audit/write.ts';
import type { Db } from '../db/client.ts';
import type { Prisma } from '../db/generated/sqlite/client.ts';
import { displayKey } from '../keys/format.ts';
import { keyStatus } from '../keys/status.ts';
import { announceCommitted, applyKeySettings, isDisabledAt, MAX_LIMIT } from '../keys/store.ts';
import { actorOf, assertStaff, ownKey, PortalInputError, PortalNotFound, type Viewer } from './access.ts';
import { refuseFreeText } from './text-input.ts';

type UpgradeStatus = 'pending' | 'approved' | 'declined';

export const USE_CASE_MAX = 2000;
export const CONTACT_MAX = 200;
const NOTE_MAX = 2000;
/** Rows a request list shows: a developer's own requests (newest first) and the staff queue (oldest first). */
const REQUESTS_SHOWN = 100;

interface UpgradeRequestInput {
  keyId: string;
  useCase: string;
  expectedDailyCalls: number;
  contact: string;
  /** The messaging app the request was made in ("wechat", "telegram": lib/channels); absent from the portal. */
  channel?: string;
}

/** The tiers side by side, straight from the Tier table (staff may have changed the defaults there). */
export async function tierComparison(db: Db) {
  const tiers = await db.tier.findMany({ where: { id: { in: ['free', 'pro'] } } });
  const byId = new Map(tiers.map((t) => [t.id, t]));
  const pick = (id: string) => {
    const tier = byId.get(id);
    if (!tier) throw new Error(`The "${id}" tier is missing from the Tier table.`);
    return {
      id: tier.id,
      name: tier.name,
      dailyQuota: tier.dailyQuota,
      ratePerSecond: tier.ratePerSecond,
      description: tier.description,
    };
  };
  return { free: pick('free'), pro: pick('pro') };
}

/** The viewer's keys that may ask for Pro: active and still on the free tier. */
export async function upgradeableKeys(db: Db, viewer: Viewer, now = Date.now()) {
  // Staff may create keys for anyone, so the count is not capped by MAX_ACTIVE_KEYS; the choice list is.
  const keys = await db.apiKey.findMany({
    where: { ownerId: viewer.id, tierId: 'free', disabledAt: null },
    orderBy: { createdAt: 'desc' },
    take: REQUESTS_SHOWN,
  });
  return keys
    .reverse()
    .filter((key) => keyStatus(key, now) === 'active')
    .map((key) => ({ id: key.id, name: key.name, display: displayKey(key) }));
}

function checkInput(input: UpgradeRequestInput): UpgradeRequestInput {
  const useCase = typeof input.useCase === 'string' ? input.useCase.trim() : '';
  const contact = typeof input.contact === 'string' ? input.contact.trim() : '';
  if (!useCase)
    throw new PortalInputError(
      'Describe your use case: what your agent does with the tools, so staff can size the upgrade.',
      'useCase',
    );
  if (useCase.length > USE_CASE_MAX)
    throw new PortalInputError(
      `Keep the use case under ${USE_CASE_MAX} characters (it has ${useCase.length}).`,
      'useCase',
    );
  refuseFreeText(useCase, 'use case', true, 'useCase');
  if (
    !Number.isInteger(input.expectedDailyCalls) ||
    input.expectedDailyCalls < 1 ||
    input.expectedDailyCalls > MAX_LIMIT
  ) {
    throw new PortalInputError(
      `Expected calls per day must be a whole number of at least 1 and at most ${MAX_LIMIT}.`,
      'expectedDailyCalls',
    );
  }
  if (!contact)
    throw new PortalInputError(
      'Say how staff can reach you (an email address, a phone number or a chat handle).',
      'contact',
    );
  if (contact.length > CONTACT_MAX)
    throw new PortalInputError(`Keep the contact under ${CONTACT_MAX} characters.`, 'contact');
  refuseFreeText(contact, 'contact', false, 'contact');
  return { ...input, useCase, contact };
}

/** A developer asks for Pro on one of their own active free keys; one pending request per key. */
export async function requestUpgrade(db: Db, viewer: Viewer, input: UpgradeRequestInput) {
  const key = await ownKey(db, viewer, input.keyId);
  const checked = checkInput(input);
  const status = keyStatus(key);
  // A reissued key in its grace period still works, but it is on its way out: its successor is the one to upgrade.
  if (key.replacedById)
    throw new PortalInputError(`The key ${displayKey(key)} was reissued; request Pro for the key that replaced it.`);
  if (status !== 'active')
    throw new PortalInputError(`The key ${displayKey(key)} is ${status}; request Pro for an active key.`);
  if (key.tierId !== 'free')
    throw new PortalInputError(`The key ${displayKey(key)} is already on the ${key.tierId} tier.`);
  return db.$transaction(async (tx) => {
    if (await tx.upgradeRequest.findFirst({ where: { keyId: key.id, status: 'pending' } })) {
      throw new PortalInputError(
        `There is already a pending request for ${displayKey(key)}; staff will answer it soon.`,
      );
    }
    return tx.upgradeRequest.create({
      data: {
        userId: viewer.id,
        keyId: key.id,
        useCase: checked.useCase,
        expectedDailyCalls: checked.expectedDailyCalls,
        contact: checked.contact,
        channel: input.channel ?? null,
      },
    });
  });
}

const REQUEST_VIEW = {
  key: {
    select: {
      id: true,
      name: true,
      start: true,
      end: true,
      tierId: true,
      disabledAt: true,
      disabledReason: true,
      stopKind: true,
      replacedById: true,
      expiresAt: true,
    },
  },
  user: { select: { email: true, name: true } },
} as const;

async function decidersById(db: Db, ids: (string | null)[]) {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  const users = wanted.length
    ? await db.user.findMany({ where: { id: { in: wanted } }, select: { id: true, email: true } })
    : [];
  return new Map(users.map((u) => [u.id, u.email]));
}

function requestView(request: Awaited<ReturnType<typeof loadRequests>>[number], deciders: Map<string, string>) {
  return {
    id: request.id,
    status: request.status as UpgradeStatus,
    useCase: request.useCase,
    expectedDailyCalls: request.expectedDailyCalls,
    contact: request.contact,
    /** The messaging app the request came through ("wechat", "telegram"); null: the portal. */
    channel: request.channel,
    createdAt: request.createdAt,
    decidedAt: request.decidedAt,
    decisionNote: request.decisionNote,
    decidedBy: request.decidedById ? (deciders.get(request.decidedById) ?? 'a former staff member') : null,
    requester: request.user.email,
    key: {
      id: request.key.id,
      name: request.key.name,
      display: displayKey(request.key),
      tier: request.key.tierId,
      status: keyStatus(request.key),
    },
  };
}

function loadRequests(db: Db, where: object, orderBy: object, take: number) {
  return db.upgradeRequest.findMany({ where, orderBy, take, include: REQUEST_VIEW });
}

type UpgradeRequestView = ReturnType<typeof requestView>;

/** The viewer's own requests, newest first. */
export async function myUpgradeRequests(db: Db, viewer: Viewer): Promise<UpgradeRequestView[]> {
  const requests = await loadRequests(db, { userId: viewer.id }, { createdAt: 'desc' }, REQUESTS_SHOWN);
  const deciders = await decidersById(
    db,
    requests.map((r) => r.decidedById),
  );
  return requests.map((r) => requestView(r, deciders));
}

/** Staff: every pending request (oldest first, the order to answer them in) and the latest decisions. */
export async function upgradeQueue(db: Db, viewer: Viewer, recentDecisions = 20) {
  assertStaff(viewer);
  const [pending, pendingTotal, decided] = await Promise.all([
    loadRequests(db, { status: 'pending' }, { createdAt: 'asc' }, REQUESTS_SHOWN),
    db.upgradeRequest.count({ where: { status: 'pending' } }),
    loadRequests(db, { status: { not: 'pending' } }, { decidedAt: 'desc' }, recentDecisions),
  ]);
  const deciders = await decidersById(
    db,
    decided.map((r) => r.decidedById),
  );
  return {
    pending: pending.map((r) => requestView(r, deciders)),
    pendingTotal,
    decided: decided.map((r) => requestView(r, deciders)),
  };
}

/** The key an approval upgrades: the requested one, or the key that replaced it when it was reissued. */
async function currentSuccessor(tx: Prisma.TransactionClient, keyId: string) {
  let key = await tx.apiKey.findUniqueOrThrow({ where: { id: keyId } });
  const seen = new Set([key.id]);
  while (key.replacedById && !seen.has(key.replacedById)) {
    key = await tx.apiKey.findUniqueOrThrow({ where: { id: key.replacedById } });
    seen.add(key.id);
  }
  return key;
}

function checkNote(note: string | undefined, required: boolean): string | null {
  const text = typeof note === 'string' ? note.trim() : '';
  if (required && !text)
    throw new PortalInputError(
      'Write a note for the developer: why the request is declined and what they can do instead.',
      'note',
    );
  if (text.length > NOTE_MAX) throw new PortalInputError(`Keep the note under ${NOTE_MAX} characters.`, 'note');
  refuseFreeText(text, 'note', true, 'note');
  return text || null;
}

/** Claims a pending request for a decision; the conditional update makes a second decision fail cleanly. */
async function decide(
  tx: Prisma.TransactionClient,
  requestId: string,
  viewer: Viewer,
  status: UpgradeStatus,
  note: string | null,
) {
  const request =
    typeof requestId === 'string' && requestId
      ? await tx.upgradeRequest.findUnique({ where: { id: requestId } })
      : null;
  if (!request) throw new PortalNotFound('No such upgrade request.');
  const claimed = await tx.upgradeRequest.updateMany({
    where: { id: requestId, status: 'pending' },
    data: { status, decidedById: viewer.id, decidedAt: new Date(), decisionNote: note },
  });
  if (claimed.count !== 1) throw new PortalInputError(`This request was already ${request.status}; reload the queue.`);
  return request;
}

/**
 * Staff approve: in one transaction the key (or its reissued successor) moves to Pro with its
 * "key.update" audit event, and the request is marked approved. /mcp sees the new tier on its next call.
 */
export async function approveUpgrade(
  db: Db,
  viewer: Viewer,
  requestId: string,
  note?: string,
  actor: Actor = actorOf(viewer),
) {
  assertStaff(viewer);
  const decisionNote = checkNote(note, false);
  const approved = await db.$transaction(async (tx) => {
    const request = await decide(tx, requestId, viewer, 'approved', decisionNote);
    const key = await currentSuccessor(tx, request.keyId);
    const { changed } = await applyKeySettings(
      db,
      tx,
      key.id,
      { tierId: 'pro' },
      actor,
      `upgrade request ${request.id} approved`,
    );
    return {
      keyId: key.id,
      display: displayKey(key),
      alreadyPro: changed.length === 0,
      disabled: isDisabledAt(key.disabledAt),
      followedReissue: key.id !== request.keyId,
    };
  });
  return approved.alreadyPro ? approved : announceCommitted(approved.keyId, approved);
}

/** Staff decline, with a note the developer sees. The key is not touched. */
export async function declineUpgrade(db: Db, viewer: Viewer, requestId: string, note: string) {
  assertStaff(viewer);
  const decisionNote = checkNote(note, true);
  return db.$transaction((tx) => decide(tx, requestId, viewer, 'declined', decisionNote));
}
