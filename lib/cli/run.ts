/**
 * The operator command line's commands: run(argv) answers the exit status, having written to stdout and
 * stderr; main.ts is the binary. A command's module is loaded when it runs, so a command loads only
 * what it uses. Every command migrates the database first, so it works before the server has ever
 * started. Errors go to stderr with exit code 1 (usage errors: 2).
 */
import { UserStoreError } from '../auth/users.ts';
import { setChemDataDir } from '../chem/third-party-data.ts';
import { ImportRefused } from '../compounds/file-checks.ts';
import { chemDataDirSetting } from '../config.ts';
import { databaseUrl, getDb } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { KeyStoreError } from '../keys/errors.ts';
import { OperatorClientError } from '../oauth/operator-client-error.ts';
import { ensureTiers } from '../portal/first-start.ts';
import { closeRedis } from '../redis/clients.ts';
import { type Command, UsageError } from './args.ts';

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

const usage = (message: string) => new UsageError(message);

const COMMANDS: Record<string, () => Promise<Command>> = {
  'user create': async () => (await import('./users.ts')).userCreate,
  'user role': async () => (await import('./users.ts')).userRole,
  'user password': async () => (await import('./users.ts')).userPassword,
  'user bind-code': async () => (await import('./users.ts')).userBindCode,
  'key create': async () => (await import('./keys.ts')).keyCreate,
  'key disable': async () => (await import('./keys.ts')).keyDisable,
  'key reissue': async () => (await import('./keys.ts')).keyReissue,
  'key show': async () => (await import('./keys.ts')).keyShow,
  'compounds import': async () => (await import('./compounds-import.ts')).compoundsImport,
  'usage prune': async () => (await import('./usage-prune.ts')).usagePrune,
  'channel wechat': async () => (await import('./channel-wechat.ts')).channelWechat,
  'channel telegram': async () => {
    const { channelTelegram } = await import('./channel-telegram.ts');
    return (_db, args) => channelTelegram(args, usage);
  },
  'oauth-client add': async () => {
    const { oauthClientAdd } = await import('./oauth-clients.ts');
    return (db, args) => oauthClientAdd(db, args, usage);
  },
  'oauth-client list': async () => {
    const { oauthClientList } = await import('./oauth-clients.ts');
    return (db, args) => oauthClientList(db, args, usage);
  },
  'oauth-client remove': async () => {
    const { oauthClientRemove } = await import('./oauth-clients.ts');
    return (db, args) => oauthClientRemove(db, args, usage);
  },
};

/** Commands with a longer help, printed for --help without touching the database. */
const HELP: Record<string, () => Promise<string>> = {
  'compounds import': async () => (await import('./compounds-import.ts')).COMPOUNDS_IMPORT_HELP,
};

export async function run(argv: string[]): Promise<number> {
  setChemDataDir(chemDataDirSetting());
  const name = argv.slice(0, 2).join(' ');
  const load = COMMANDS[name];
  if (!load) {
    console.error(argv.length ? `Unknown command "${name}".\n\n${USAGE}` : USAGE);
    return 2;
  }
  if (HELP[name] && argv.slice(2).includes('--help')) {
    console.log(await HELP[name]());
    return 0;
  }
  const db = getDb();
  try {
    await migrateDatabase(databaseUrl());
    await ensureTiers(db);
    const command = await load();
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
