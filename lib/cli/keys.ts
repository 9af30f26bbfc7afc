/** `cli key …`: create, disable, reissue and show keys, bypassing the owners' daily cap. */
import { CLI_ACTOR } from '../audit/write.ts';
import { normaliseEmail, UserStoreError } from '../auth/users.ts';
import type { Db } from '../db/client.ts';
import { findKey } from '../keys/find.ts';
import { displayKey } from '../keys/format.ts';
import {
  disableKey,
  issueKey,
  parseReissueGrace,
  REISSUE_GRACE_CHOICES,
  type ReissueGrace,
  reissueKey,
} from '../keys/store.ts';
import { type KeyReport, keyReport } from '../usage/key-report.ts';
import { parse, positiveInteger, text, UsageError } from './args.ts';
import { parseExpiry } from './duration.ts';

/** What `key create --json` and `key reissue --json` print for the key they issued. */
function issuedKeyJson(key: Parameters<typeof displayKey>[0] & { id: string }, secret: string, report: KeyReport) {
  return {
    id: key.id,
    key: secret,
    start: displayKey(key),
    tier: report.tier,
    dailyQuota: report.dailyQuota,
    rps: report.ratePerSecond,
    expiresAt: report.expiresAt,
  };
}

export async function keyCreate(db: Db, args: string[]) {
  const { values } = parse(args, {
    owner: { type: 'string' },
    name: { type: 'string' },
    tier: { type: 'string' },
    'daily-quota': { type: 'string' },
    rps: { type: 'string' },
    'expires-in': { type: 'string' },
    expires: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (!values.owner) throw new UsageError('key create needs --owner EMAIL.');
  let expiresAt: Date | null;
  try {
    expiresAt = parseExpiry({ 'expires-in': text(values['expires-in']), expires: text(values.expires) });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const owner = await db.user.findUnique({ where: { email: normaliseEmail(text(values.owner)!) } });
  if (!owner)
    throw new UserStoreError('not_found', `No user with email ${values.owner}; create one with "user create".`);
  const { key, secret } = await issueKey(
    db,
    {
      ownerId: owner.id,
      name: text(values.name) ?? 'CLI key',
      tierId: text(values.tier) ?? 'free',
      dailyQuota: positiveInteger('daily-quota', text(values['daily-quota'])),
      ratePerSecond: positiveInteger('rps', text(values.rps)),
      expiresAt,
    },
    CLI_ACTOR,
    { cap: 'bypass' },
  );
  const report = await keyReport(db, key);
  if (values.json) {
    console.log(JSON.stringify(issuedKeyJson(key, secret, report)));
  } else {
    console.log(
      `Created key ${key.id} "${key.name}" for ${owner.email}: ${report.tier}, ${report.dailyQuota} calls/day, ${report.ratePerSecond}/s, expires ${report.expiresAt ?? 'never'}.`,
    );
    console.log(`Secret (shown once, store it now): ${secret}`);
  }
}

export async function keyDisable(db: Db, args: string[]) {
  const { values, positionals } = parse(args, { reason: { type: 'string' }, leaked: { type: 'boolean' } }, 1);
  if (!text(values.reason)?.trim()) throw new UsageError('key disable needs --reason TEXT (kept in the audit trail).');
  const key = await findKey(db, positionals[0]);
  await disableKey(db, {
    keyId: key.id,
    reason: text(values.reason)!,
    actor: CLI_ACTOR,
    kind: values.leaked ? 'leaked' : 'operator',
  });
  console.log(
    `Disabled key ${key.id} (${displayKey(key)})${values.leaked ? ' as leaked' : ''}; any secret it replaced that was still in its grace period stops too.`,
  );
}

function graceOption(raw: string | undefined): ReissueGrace {
  try {
    return parseReissueGrace(raw);
  } catch {
    throw new UsageError(`--grace must be one of ${REISSUE_GRACE_CHOICES.join(', ')}, got "${raw}".`);
  }
}

export async function keyReissue(db: Db, args: string[]) {
  const { values, positionals } = parse(args, { json: { type: 'boolean' }, grace: { type: 'string' } }, 1);
  const grace = graceOption(text(values.grace));
  const old = await findKey(db, positionals[0]);
  const { key, secret, replaced } = await reissueKey(db, old.id, CLI_ACTOR, { grace, cap: 'bypass' });
  const report = await keyReport(db, key);
  const oldWorksUntil = report.predecessor?.worksUntil ?? null;
  if (values.json) {
    console.log(JSON.stringify({ ...issuedKeyJson(key, secret, report), replaces: old.id, oldWorksUntil }));
  } else {
    console.log(
      oldWorksUntil
        ? `Reissued key ${old.id} as ${key.id}; the old secret works until ${oldWorksUntil}, then stops.`
        : `Reissued key ${old.id} as ${key.id}; the old secret no longer works${replaced.stopKind === 'reissued' ? '' : ` (it was already disabled)`}.`,
    );
    console.log(`New secret (shown once, store it now): ${secret}`);
  }
}

/** The status word the portal shows (lib/keys/status.ts), with why a key is off or until when a replaced one works. */
function statusLine(r: KeyReport): string {
  if (r.status === 'replaced')
    return `replaced${r.worksUntil ? ` — works until ${r.worksUntil}` : ''} (by key ${r.replacedById})`;
  return `${r.status}${(r.status === 'disabled' || r.status === 'leaked') && r.disabledReason ? ` (${r.disabledReason})` : ''}`;
}

function printReport(r: KeyReport): void {
  const lines = [
    `Key ${r.id} "${r.name}" (${r.display}), owner ${r.owner}`,
    `  Status:      ${statusLine(r)}`,
    ...(r.predecessor
      ? [
          `  Replaces:    ${r.predecessor.display} (key ${r.predecessor.id}), which still works until ${r.predecessor.worksUntil}`,
        ]
      : []),
    `  Tier:        ${r.tier}: ${r.dailyQuota} calls/day, ${r.ratePerSecond} calls/s`,
    `  Today:       ${r.usedToday} used, ${r.remainingToday} left (day ${r.quotaDay}, resets ${r.quotaResetsAt})${r.lineageKeys > 1 ? `, shared by the ${r.lineageKeys} keys of its reissue chain` : ''}`,
    `  Expires:     ${r.expiresAt ?? 'never'}`,
    `  Last used:   ${r.lastUsedAt ?? 'never'}`,
    '  Today by tool (successes / failures / rate-limited):',
    ...(r.today.length
      ? r.today.map((t) => `    ${t.tool}: ${t.successes} / ${t.failures} / ${t.rateLimited}`)
      : ['    no calls today']),
    '  Last 7 days (successes / failures / rate-limited):',
    ...r.trend.map((d) => `    ${d.day}: ${d.successes} / ${d.failures} / ${d.rateLimited}`),
    '  Last 10 calls:',
    ...(r.lastCalls.length
      ? r.lastCalls.map(
          (c) =>
            `    ${c.createdAt}  ${c.tool}  ${c.outcome}${c.errorCode ? ` (${c.errorCode})` : ''}  ${c.latencyMs.toFixed(1)} ms${c.otherKey ? `  with ${c.otherKey.display}` : ''}`,
        )
      : ['    none']),
    `  Refused:     ${r.refused.total} call${r.refused.total === 1 ? '' : 's'} with a secret that no longer works${r.refused.since ? ` since ${r.refused.since}` : ''}, ${r.refusedToday} today`,
    ...r.refused.recent.map(
      (c) =>
        `    ${c.at}  from ${c.clientAddress ?? 'an unknown address'}  key ${c.reason}${c.key ? `  with ${c.key.display}` : ''}`,
    ),
  ];
  console.log(lines.join('\n'));
}

export async function keyShow(db: Db, args: string[]) {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } }, 1);
  const report = await keyReport(db, await findKey(db, positionals[0]));
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else printReport(report);
}
