/**
 * The operator command line's commands: run(argv) answers the exit status, having written to stdout and
 * stderr; main.ts is the binary. Every command migrates the database first, so it works before the
 * server has ever started. Errors go to stderr with exit code 1 (usage errors: 2).
 */
import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/write.ts';
import { createUser, normaliseEmail, setPassword, setUserRole, UserStoreError } from '../auth/users.ts';
import { BIND_CODE_MINUTES, createBindCode } from '../channels/bindings.ts';
import { pushMenu } from '../channels/wechat/api.ts';
import { wechatMenu } from '../channels/wechat/menu.ts';
import { wechatApiSettings } from '../channels/wechat/settings.ts';
import { setChemDataDir } from '../chem/third-party-data.ts';
import { ImportRefused } from '../compounds/file-checks.ts';
import { IMPORT_FORMATS, type ImportFile, readImportFile } from '../compounds/import-file.ts';
import { type ImportFormat, importCompounds, loadBuiltinCompounds } from '../compounds/store.ts';
import { chemDataDirSetting, config } from '../config.ts';
import { type Db, databaseUrl, getDb } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { findKey } from '../keys/find.ts';
import { displayKey } from '../keys/format.ts';
import {
  disableKey,
  issueKey,
  KeyStoreError,
  parseReissueGrace,
  REISSUE_GRACE_CHOICES,
  type ReissueGrace,
  reissueKey,
} from '../keys/store.ts';
import { OperatorClientError } from '../oauth/operator-clients.ts';
import { ensureTiers } from '../portal/first-start.ts';
import { formatUtc } from '../portal/format.ts';
import { closeRedis } from '../redis/clients.ts';
import { type KeyReport, keyReport } from '../usage/key-report.ts';
import { pruneCallLog } from '../usage/retention.ts';
import { channelTelegram } from './channel-telegram.ts';
import { COMPOUNDS_IMPORT_HELP, describeReport } from './compounds-import.ts';
import { parseExpiry } from './duration.ts';
import { oauthClientAdd, oauthClientList, oauthClientRemove } from './oauth-clients.ts';

const USAGE = `Usage: npm run --silent cli -- <command>

  user create --email E --password P [--role developer|support|admin]
  user role --email E --role developer|support|admin
  user password --email E --password P   (ends every session of the account)
  user bind-code --email E   (a one-time code binding a WeChat/Telegram follower to E; the code is the last line)
  key create --owner EMAIL [--name N] [--tier free|pro] [--daily-quota N] [--rps N]
             [--expires-in 30d | --expires ISO] [--json]
  key disable <id|secret|cf_abcd…wxyz|abcd> --reason TEXT [--leaked]
  key reissue <id|secret|cf_abcd…wxyz|abcd> [--grace none|1h|24h|7d] [--json]
             (--grace: how long the old secret keeps working; default none, it stops at once)
             (key create and key reissue are not held to KEYS_CREATED_PER_DAY, the owners' daily cap)
  key show <id|secret|cf_abcd…wxyz|abcd> [--json]
  compounds import <file> [--format chemsep|csv] [--replace] [--dry-run] [--json]
  usage prune [--dry-run]   (deletes call-log rows older than CALL_LOG_RETENTION_DAYS, default 90)
  channel wechat menu [--push]   (menu JSON in WECHAT_LANGUAGE; --push: send it with WECHAT_APP_ID/SECRET)
  channel telegram webhook --url https://HOST/api/channels/telegram [--push]   (--push: setWebhook, setMyCommands)
                   (compounds import --help: the options and the CSV format)
  oauth-client add --name N --redirect-uri URI [--redirect-uri URI2 …] [--logo-uri https://…]
                   [--client-uri https://…] [--confidential]
                   (a custom scheme such as myapp://callback is allowed; --confidential: a secret, shown once)
  oauth-client list [--all]   (the operator's clients; --all: self-registered ones too)
  oauth-client remove <client-id>   (ends its connections; their access tokens stop at once)`;

class UsageError extends Error {}

function positiveInteger(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new UsageError(`--${name} must be a whole number of at least 1, got "${raw}".`);
  return value;
}

function parse(
  args: string[],
  options: NonNullable<Parameters<typeof parseArgs>[0]>['options'],
  positionals = 0,
  positional = 'key reference (id, secret, display form or first 4 characters)',
) {
  try {
    const parsed = parseArgs({ args, options, allowPositionals: positionals > 0, strict: true });
    if (parsed.positionals.length !== positionals) {
      throw new UsageError(positionals ? `Give exactly one ${positional}.` : 'Unexpected argument.');
    }
    return parsed as { values: Record<string, string | boolean | undefined>; positionals: string[] };
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
}

const text = (v: string | boolean | undefined) => (typeof v === 'string' ? v : undefined);

async function userCreate(db: Db, args: string[]) {
  const { values } = parse(args, { email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string' } });
  if (!values.email || !values.password) throw new UsageError('user create needs --email and --password.');
  const user = await createUser(
    db,
    { email: text(values.email)!, password: text(values.password)!, role: text(values.role) },
    CLI_ACTOR,
  );
  console.log(`Created ${user.role} ${user.email} (id ${user.id}).`);
}

async function userRole(db: Db, args: string[]) {
  const { values } = parse(args, { email: { type: 'string' }, role: { type: 'string' } });
  if (!values.email || !values.role) throw new UsageError('user role needs --email and --role.');
  const user = await db.user.findUnique({ where: { email: normaliseEmail(text(values.email)!) } });
  if (!user)
    throw new UserStoreError('not_found', `No user with email ${values.email}; create one with "user create".`);
  const previous = user.role;
  await setUserRole(db, user.id, text(values.role)!, CLI_ACTOR);
  console.log(`${user.email} is now ${values.role} (was ${previous}).`);
}

async function userPassword(db: Db, args: string[]) {
  const { values } = parse(args, { email: { type: 'string' }, password: { type: 'string' } });
  if (!values.email || !values.password) throw new UsageError('user password needs --email and --password.');
  const user = await setPassword(db, text(values.email)!, text(values.password)!, CLI_ACTOR);
  console.log(`Set a new password for ${user.email}; every session of the account has ended.`);
}

async function userBindCode(db: Db, args: string[]) {
  const { values } = parse(args, { email: { type: 'string' } });
  if (!values.email) throw new UsageError('user bind-code needs --email.');
  const user = await db.user.findUnique({ where: { email: normaliseEmail(text(values.email)!) } });
  if (!user)
    throw new UserStoreError('not_found', `No user with email ${values.email}; create one with "user create".`);
  const { code, expiresAt } = await createBindCode(db, user.id);
  // The code alone on the last line, for scripts (`tail -1`).
  console.log(
    `Bind code for ${user.email}: it works for ${BIND_CODE_MINUTES} minutes, until ${formatUtc(expiresAt)}, once; any earlier code stops working. Send it as a message to the WeChat Official Account, or /bind ${code} to the Telegram bot.`,
  );
  console.log(code);
}

async function keyCreate(db: Db, args: string[]) {
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
    console.log(
      JSON.stringify({
        id: key.id,
        key: secret,
        start: displayKey(key),
        tier: report.tier,
        dailyQuota: report.dailyQuota,
        rps: report.ratePerSecond,
        expiresAt: report.expiresAt,
      }),
    );
  } else {
    console.log(
      `Created key ${key.id} "${key.name}" for ${owner.email}: ${report.tier}, ${report.dailyQuota} calls/day, ${report.ratePerSecond}/s, expires ${report.expiresAt ?? 'never'}.`,
    );
    console.log(`Secret (shown once, store it now): ${secret}`);
  }
}

async function keyDisable(db: Db, args: string[]) {
  const { values, positionals } = parse(args, { reason: { type: 'string' }, leaked: { type: 'boolean' } }, 1);
  if (!text(values.reason)?.trim()) throw new UsageError('key disable needs --reason TEXT (kept in the audit trail).');
  const key = await findKey(db, positionals[0]);
  await disableKey(db, key.id, text(values.reason)!, CLI_ACTOR, values.leaked ? 'leaked' : 'operator');
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

async function keyReissue(db: Db, args: string[]) {
  const { values, positionals } = parse(args, { json: { type: 'boolean' }, grace: { type: 'string' } }, 1);
  const grace = graceOption(text(values.grace));
  const old = await findKey(db, positionals[0]);
  const { key, secret, replaced } = await reissueKey(db, old.id, CLI_ACTOR, { grace, cap: 'bypass' });
  const report = await keyReport(db, key);
  const oldWorksUntil = report.predecessor?.worksUntil ?? null;
  if (values.json) {
    console.log(
      JSON.stringify({
        id: key.id,
        key: secret,
        start: displayKey(key),
        tier: report.tier,
        dailyQuota: report.dailyQuota,
        rps: report.ratePerSecond,
        expiresAt: report.expiresAt,
        replaces: old.id,
        oldWorksUntil,
      }),
    );
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

async function keyShow(db: Db, args: string[]) {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } }, 1);
  const report = await keyReport(db, await findKey(db, positionals[0]));
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else printReport(report);
}

async function compoundsImport(db: Db, args: string[]) {
  const options = {
    format: { type: 'string' },
    replace: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
  } as const;
  const { values, positionals } = parse(args, options, 1, 'file to import');
  const format = text(values.format);
  if (format !== undefined && !(IMPORT_FORMATS as string[]).includes(format)) {
    throw new UsageError(`--format must be ${IMPORT_FORMATS.join(' or ')}, got "${format}".`);
  }
  let file: ImportFile;
  try {
    file = readImportFile(positionals[0], format as ImportFormat | undefined);
  } catch (error) {
    if (values.json && error instanceof ImportRefused)
      console.log(JSON.stringify({ error: 'refused', message: error.message, problems: error.problems }, null, 2));
    throw error;
  }
  // The conflict check needs the built-in rows current, even before the server has ever started.
  await loadBuiltinCompounds(db);
  const report = await importCompounds(db, {
    ...file,
    replace: Boolean(values.replace),
    dryRun: Boolean(values['dry-run']),
  });
  console.log(values.json ? JSON.stringify(report, null, 2) : describeReport(report));
}

async function usagePrune(db: Db, args: string[]) {
  const { values } = parse(args, { 'dry-run': { type: 'boolean' } });
  const retentionDays = config().callLogRetentionDays;
  const { rows, cutoff } = await pruneCallLog(db, { retentionDays, dryRun: Boolean(values['dry-run']) });
  const what = `call-log rows older than ${cutoff.toISOString()} (CALL_LOG_RETENTION_DAYS=${retentionDays})`;
  console.log(
    values['dry-run'] ? `Would delete ${rows} ${what}.` : `Deleted ${rows} ${what}; daily usage totals are kept.`,
  );
}

async function channelWechat(_db: Db, args: string[]) {
  const { values, positionals } = parse(args, { push: { type: 'boolean' } }, 1, 'channel wechat subcommand (menu)');
  if (positionals[0] !== 'menu') throw new UsageError(`Unknown subcommand "channel wechat ${positionals[0]}".`);
  const wechat = config().wechat;
  if (!wechat)
    throw new UsageError('channel wechat menu reads the WeChat settings: set WECHAT_TOKEN (and WECHAT_LANGUAGE).');
  const menu = wechatMenu(wechat.language);
  if (!values.push) return console.log(JSON.stringify(menu, null, 2));
  const settings = wechatApiSettings(wechat);
  if (!settings) throw new UsageError('channel wechat menu --push needs WECHAT_APP_ID and WECHAT_APP_SECRET.');
  console.log(JSON.stringify(await pushMenu(menu, settings)));
}

const COMMANDS: Record<string, (db: Db, args: string[]) => Promise<void>> = {
  'user create': userCreate,
  'user role': userRole,
  'user password': userPassword,
  'user bind-code': userBindCode,
  'key create': keyCreate,
  'key disable': keyDisable,
  'key reissue': keyReissue,
  'key show': keyShow,
  'compounds import': compoundsImport,
  'usage prune': usagePrune,
  'channel wechat': channelWechat,
  'channel telegram': (_db, args) => channelTelegram(args, (message) => new UsageError(message)),
  'oauth-client add': (db, args) => oauthClientAdd(db, args, (message) => new UsageError(message)),
  'oauth-client list': (db, args) => oauthClientList(db, args, (message) => new UsageError(message)),
  'oauth-client remove': (db, args) => oauthClientRemove(db, args, (message) => new UsageError(message)),
};

/** Commands with a longer help, printed for --help without touching the database. */
const HELP: Record<string, string> = {
  'compounds import': COMPOUNDS_IMPORT_HELP,
};

export async function run(argv: string[]): Promise<number> {
  setChemDataDir(chemDataDirSetting());
  const name = argv.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (!command) {
    console.error(argv.length ? `Unknown command "${name}".\n\n${USAGE}` : USAGE);
    return 2;
  }
  if (HELP[name] && argv.slice(2).includes('--help')) {
    console.log(HELP[name]);
    return 0;
  }
  const db = getDb();
  try {
    await migrateDatabase(databaseUrl());
    await ensureTiers(db);
    await command(db, argv.slice(2));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof KeyStoreError || error instanceof UserStoreError || error instanceof OperatorClientError) {
      console.error(error.message);
      return 1;
    }
    if (error instanceof ImportRefused) {
      console.error(error.describe());
      return 1;
    }
    console.error(`Failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await Promise.all([db.$disconnect(), closeRedis()]);
  }
}
