/**
 * Settings read from the environment, parsed once. Every knob docs/configuration.md documents lives here, so a
 * newcomer has one place to look and a bad value fails at start with a message naming the variable.
 */

export interface ServiceConfig {
  port: number;
  /** Listen address; unset means all interfaces, IPv6 and IPv4. */
  host?: string;
  /** Refuse plain HTTP from non-loopback clients (spec §5.7). REQUIRE_HTTPS=0 turns it off. */
  requireHttps: boolean;
  /** Trust X-Forwarded-Proto / X-Forwarded-For from a reverse proxy (TRUST_PROXY=1). */
  trustProxy: boolean;
  tlsCertFile?: string;
  tlsKeyFile?: string;
  /** Origins allowed to call /mcp from a browser; "*" allows any. */
  corsOrigins: string[];
  /**
   * Host header values /mcp answers (DNS-rebinding protection): lower-case "host" (any port) or
   * "host:port" entries from ALLOWED_HOSTS, PUBLIC_URL's host, and the loopback names, always.
   */
  allowedHosts: ReadonlySet<string>;
  /** IANA time zone whose calendar days are the quota days. */
  quotaTimeZone: string;
  /** Largest accepted /mcp request body in bytes (its entry in lib/http/body-caps.ts). */
  maxBodyBytes: number;
  /** Connections one socket address may hold open (0: no cap; behind TRUST_PROXY every connection is the proxy's). */
  maxConnectionsPerAddress: number;
  /** Requests one client address may have in progress at a time (0: no cap). */
  maxRequestsPerAddress: number;
  /** A request's headers must arrive whole within this long, in milliseconds. */
  headersTimeoutMs: number;
  /** A request's body must arrive whole within this long, in milliseconds. */
  bodyTimeoutMs: number;
  /** A body must arrive at least this fast, in bytes a second over each 5 s (0: no minimum). */
  bodyMinBytesPerSecond: number;
  /** Leak reports accepted per client address per minute at POST /api/keys/report-leak. */
  leakReportsPerMinute: number;
  /** How long an OAuth access token lasts, in seconds (OAUTH_ACCESS_TOKEN_SECONDS, default an hour). */
  oauthAccessTokenSeconds: number;
  /** OAuth client registrations (POST /register) one client address may make per hour. */
  clientRegistrationsPerHour: number;
  /** Sign-up attempts one client address may make per hour (the rest are refused with the time to retry). */
  signUpsPerHour: number;
  /** Keys (new and reissued) one account may have created in any 24 hours, through the portal or a messaging app. */
  keysCreatedPerDay: number;
  /** Failed API-key authentications one client address may make per window before it is locked. */
  keyAuthMaxFailures: number;
  /** The window of keyAuthMaxFailures, in seconds. */
  keyAuthFailureWindowSeconds: number;
  /** The shared mode's Redis (REDIS_URL, with DATABASE_URL=postgresql://…); unset: the in-process limiter. */
  redisUrl?: string;
  /** Prefix of every Redis key and channel, so deployments and test runs can share one Redis. */
  redisKeyPrefix: string;
  /** Lowest level written to the JSON logs; "warn" silences the per-request lines. */
  logLevel: LogLevel;
  /** CallLog rows older than this many days are pruned (daily aggregates are kept). */
  callLogRetentionDays: number;
  /** Call-log CSV exports one account may run at once (EXPORTS_PER_ACCOUNT). */
  exportsPerAccount: number;
  /** Call-log CSV exports this process runs at once, all accounts together (EXPORTS_PER_SERVER). */
  exportsPerServer: number;
  /** How long an export beyond those limits waits for its turn before it is refused (EXPORT_WAIT_SECONDS). */
  exportWaitSeconds: number;
  /** When set, GET /api/metrics requires "Authorization: Bearer <token>". */
  metricsToken?: string;
  /** Without a token, GET /api/metrics answers loopback only, unless METRICS_OPEN=1 opens it to every address. */
  metricsOpen: boolean;
  /** The address people and agents use (PUBLIC_URL); unset: the address a request was sent to. */
  publicUrl?: string;
  /** The Pro tier's per-second rate seeded into the Tier table (PRO_RATE_PER_SECOND, default 25). */
  proRatePerSecond: number;
  /** The first admin's email, used once when the database has no admin (ADMIN_EMAIL). */
  adminEmail: string;
  /** GitHub sign-in, offered when both AUTH_GITHUB_ID and AUTH_GITHUB_SECRET are set. */
  github?: { clientId: string; clientSecret: string };
  /** The provider's contact page (CONTACT_URL), offered by the messaging apps' "contact" and "buy Pro". */
  contactUrl?: string;
  /** The WeChat Official Account door, enabled by WECHAT_TOKEN (lib/channels/wechat). */
  wechat?: WechatSettings;
  /** The Telegram bot door, enabled by TELEGRAM_BOT_TOKEN (lib/channels/telegram). */
  telegram?: TelegramSettings;
}

export type ReplyLanguage = 'zh' | 'en';

export interface WechatSettings {
  /** The Token set on the platform's server configuration page; signs every request. */
  token: string;
  /** Safe mode (encrypted messages) when both are set. */
  encodingAesKey?: string;
  appId?: string;
  /** With appId: the platform API (menu push, messages sent outside a reply). */
  appSecret?: string;
  language: ReplyLanguage;
  /** The platform API's address; tests point it at a local stand-in. */
  apiBase: string;
}

export interface TelegramSettings {
  botToken: string;
  /** The secret_token Telegram sends back in X-Telegram-Bot-Api-Secret-Token with every update. */
  webhookSecret: string;
  language: ReplyLanguage;
  apiRoot: string;
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function logLevel(name: string, fallback: LogLevel): LogLevel {
  const raw = (process.env[name] || fallback).toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(raw))
    throw new Error(`${name} must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return raw as LogLevel;
}

function integer(name: string, fallback: number, min = 0): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  }
  return value;
}

function flag(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new Error(`${name} must be 1 or 0, got "${raw}"`);
}

function timeZone(name: string, fallback: string): string {
  const zone = process.env[name] || fallback;
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: zone });
  } catch {
    throw new Error(`${name} must be an IANA time zone such as UTC or Europe/Berlin, got "${zone}"`);
  }
  return zone;
}

/**
 * REDIS_URL switches on the shared mode, which needs the instances to share PostgreSQL: with SQLite
 * (one machine, one process) the counters would live in Redis but the usage they are rebuilt from
 * would not be shared, so that combination is refused rather than half-working.
 */
function redisUrl(): string | undefined {
  const raw = process.env.REDIS_URL;
  if (!raw) return undefined;
  if (!/^rediss?:\/\//i.test(raw)) throw new Error('REDIS_URL must be redis://host:6379 (or rediss:// for TLS)');
  if (databaseProvider(databaseUrl()) !== 'postgresql') {
    throw new Error(
      'REDIS_URL needs DATABASE_URL=postgresql://…: the shared mode keeps usage in PostgreSQL. Unset REDIS_URL to run one instance on SQLite.',
    );
  }
  return raw;
}

function keyPrefix(name: string, fallback: string): string {
  const raw = process.env[name] || fallback;
  if (!/^[\w.:-]{1,64}$/.test(raw))
    throw new Error(`${name} must be 1 to 64 letters, digits, "_", "-", "." or ":", got "${raw}"`);
  return raw;
}

function language(name: string, fallback: ReplyLanguage): ReplyLanguage {
  const raw = (process.env[name] || fallback).toLowerCase();
  if (raw !== 'zh' && raw !== 'en') throw new Error(`${name} must be zh or en, got "${raw}"`);
  return raw;
}

function httpUrl(name: string, fallback?: string): string | undefined {
  const raw = process.env[name] || fallback;
  if (raw === undefined) return undefined;
  if (!/^https?:\/\/[^\s/]+/i.test(raw)) throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/** The platform's rules: a Token of 3 to 32 letters or digits; an EncodingAESKey of 43 letters or digits. */
function wechatSettings(): WechatSettings | undefined {
  const token = process.env.WECHAT_TOKEN;
  if (!token) return undefined;
  if (!/^[A-Za-z0-9]{3,32}$/.test(token))
    throw new Error('WECHAT_TOKEN must be 3 to 32 letters or digits, as the platform requires');
  const encodingAesKey = process.env.WECHAT_ENCODING_AES_KEY || undefined;
  const appId = process.env.WECHAT_APP_ID || undefined;
  const appSecret = process.env.WECHAT_APP_SECRET || undefined;
  if (encodingAesKey && !/^[A-Za-z0-9]{43}$/.test(encodingAesKey))
    throw new Error('WECHAT_ENCODING_AES_KEY must be the 43 letters or digits the platform generated');
  if (encodingAesKey && !appId)
    throw new Error('WECHAT_ENCODING_AES_KEY needs WECHAT_APP_ID: encrypted messages carry it');
  if (appSecret && !appId) throw new Error('WECHAT_APP_SECRET needs WECHAT_APP_ID');
  return {
    token,
    encodingAesKey,
    appId,
    appSecret,
    language: language('WECHAT_LANGUAGE', 'zh'),
    apiBase: httpUrl('WECHAT_API_BASE', 'https://api.weixin.qq.com') as string,
  };
}

/** Telegram's rule for the webhook secret: 1 to 256 of A-Z, a-z, 0-9, "_" and "-". */
function telegramSettings(): TelegramSettings | undefined {
  const botToken = process.env.TELEGRAM_BOT_TOKEN;
  if (!botToken) return undefined;
  if (!/^\d+:[\w-]+$/.test(botToken))
    throw new Error('TELEGRAM_BOT_TOKEN must be the token @BotFather gave, like 123456:ABC-DEF…');
  const webhookSecret = process.env.TELEGRAM_WEBHOOK_SECRET ?? '';
  if (!/^[\w-]{1,256}$/.test(webhookSecret))
    throw new Error(
      'TELEGRAM_BOT_TOKEN needs TELEGRAM_WEBHOOK_SECRET: 1 to 256 letters, digits, "_" or "-" (e.g. openssl rand -hex 32), so only Telegram can post updates',
    );
  return {
    botToken,
    webhookSecret,
    language: language('TELEGRAM_LANGUAGE', 'en'),
    apiRoot: httpUrl('TELEGRAM_API_ROOT', 'https://api.telegram.org') as string,
  };
}

/** Names that only a client on this machine can have put in Host; always allowed (see allowedHosts). */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
/** A DNS name, an IPv4 address or a bracketed IPv6 address, with an optional port. */
const HOST_ENTRY =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/**
 * ALLOWED_HOSTS plus PUBLIC_URL's host plus the loopback names. Loopback stays allowed even when
 * ALLOWED_HOSTS is set: a DNS-rebinding page always sends its own (attacker's) name as Host, never a
 * loopback one, so allowing those costs nothing and keeps health probes and local tools on the server
 * machine working.
 */
function allowedHosts(): Set<string> {
  const hosts = new Set(LOOPBACK_HOSTS);
  for (const raw of (process.env.ALLOWED_HOSTS ?? '').split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (!HOST_ENTRY.test(entry)) {
      throw new Error(
        `ALLOWED_HOSTS must be comma-separated host names or host:port pairs as clients send them in Host (e.g. api.example.com,api.example.com:8443), without scheme or path; got "${raw.trim()}"`,
      );
    }
    hosts.add(entry);
  }
  const publicUrl = process.env.PUBLIC_URL;
  if (publicUrl) {
    let host: string;
    try {
      host = new URL(publicUrl).host;
    } catch {
      throw new Error(`PUBLIC_URL must be an absolute URL such as https://api.example.com, got "${publicUrl}"`);
    }
    if (host) hosts.add(host.toLowerCase());
  }
  return hosts;
}

export function loadConfig(): ServiceConfig {
  const trustProxy = flag('TRUST_PROXY', false);
  return {
    port: integer('PORT', 3000, 0),
    host: process.env.HOST || undefined,
    requireHttps: flag('REQUIRE_HTTPS', true),
    trustProxy,
    tlsCertFile: process.env.TLS_CERT_FILE || undefined,
    tlsKeyFile: process.env.TLS_KEY_FILE || undefined,
    corsOrigins: (process.env.CORS_ORIGINS ?? '*')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    allowedHosts: allowedHosts(),
    quotaTimeZone: timeZone('QUOTA_TIMEZONE', 'UTC'),
    maxBodyBytes: integer('MCP_MAX_BODY_BYTES', 1024 * 1024, 1024),
    // Behind the proxy every connection comes from the proxy's address: no cap unless one is set.
    maxConnectionsPerAddress: integer('MAX_CONNECTIONS_PER_ADDRESS', trustProxy ? 0 : 64),
    maxRequestsPerAddress: integer('MAX_REQUESTS_PER_ADDRESS', 32),
    headersTimeoutMs: integer('HEADERS_TIMEOUT_SECONDS', 20, 1) * 1000,
    bodyTimeoutMs: integer('BODY_TIMEOUT_SECONDS', 30, 1) * 1000,
    bodyMinBytesPerSecond: integer('BODY_MIN_BYTES_PER_SECOND', 1024),
    leakReportsPerMinute: integer('LEAK_REPORTS_PER_MINUTE', 10, 1),
    clientRegistrationsPerHour: integer('OAUTH_REGISTRATIONS_PER_HOUR', 20, 1),
    oauthAccessTokenSeconds: integer('OAUTH_ACCESS_TOKEN_SECONDS', 3600, 1),
    signUpsPerHour: integer('SIGN_UPS_PER_HOUR', 10, 1),
    keysCreatedPerDay: integer('KEYS_CREATED_PER_DAY', 50, 1),
    keyAuthMaxFailures: integer('KEY_AUTH_MAX_FAILURES', 20, 1),
    keyAuthFailureWindowSeconds: integer('KEY_AUTH_FAILURE_WINDOW_SECONDS', 60, 1),
    redisUrl: redisUrl(),
    redisKeyPrefix: keyPrefix('REDIS_KEY_PREFIX', 'chemflow'),
    logLevel: logLevel('LOG_LEVEL', 'info'),
    callLogRetentionDays: integer('CALL_LOG_RETENTION_DAYS', 90, 1),
    exportsPerAccount: integer('EXPORTS_PER_ACCOUNT', 1, 1),
    exportsPerServer: integer('EXPORTS_PER_SERVER', 2, 1),
    exportWaitSeconds: integer('EXPORT_WAIT_SECONDS', 15, 0),
    metricsToken: process.env.METRICS_TOKEN || undefined,
    metricsOpen: flag('METRICS_OPEN', false),
    publicUrl: process.env.PUBLIC_URL || undefined,
    proRatePerSecond: integer('PRO_RATE_PER_SECOND', 25, 1),
    adminEmail: process.env.ADMIN_EMAIL || 'admin@localhost',
    github:
      process.env.AUTH_GITHUB_ID && process.env.AUTH_GITHUB_SECRET
        ? { clientId: process.env.AUTH_GITHUB_ID, clientSecret: process.env.AUTH_GITHUB_SECRET }
        : undefined,
    contactUrl: httpUrl('CONTACT_URL'),
    wechat: wechatSettings(),
    telegram: telegramSettings(),
  };
}

let cached: ServiceConfig | undefined;
/** The process-wide configuration (parsed on first use). */
export function config(): ServiceConfig {
  cached ??= loadConfig();
  return cached;
}

// Which database the app talks to is decided by one setting, DATABASE_URL; reading and classifying it
// loads no Prisma client, so the migration runner and scripts use it too.
export type DatabaseProvider = 'sqlite' | 'postgresql';

/** The embedded default: a SQLite file under ./data, relative to the working directory. */
const DEFAULT_DATABASE_URL = 'file:./data/chemflow.db';

export function databaseUrl(): string {
  return process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

export function databaseProvider(url: string): DatabaseProvider {
  if (/^postgres(ql)?:\/\//i.test(url)) return 'postgresql';
  if (/^file:/i.test(url)) return 'sqlite';
  // Name only the scheme: the rest of a URL may hold a password.
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? (url ? 'a URL without a scheme' : 'an empty value');
  throw new Error(
    `Unsupported DATABASE_URL (${scheme}). Use file:./path/to/file.db for SQLite ` +
      'or postgresql://user:password@host:5432/database (postgres:// also works) for PostgreSQL.',
  );
}

/**
 * A server secret as configured: the variable's value, or else the file to keep a generated one in
 * (lib/secrets.ts). Read at each call, not cached with config(): tests point it at a server's files.
 */
export function secretSetting(
  envVar: string,
  fileEnvVar: string,
  defaultFile: string,
): { value?: string; file: string } {
  return { value: process.env[envVar] || undefined, file: process.env[fileEnvVar] || defaultFile };
}

/** The compound import size limit in megabytes (COMPOUND_IMPORT_MAX_MB), read by the CLI at each import. */
export const DEFAULT_IMPORT_MAX_MB = 50;
export function importMaxMegabytes(): number {
  const raw = process.env.COMPOUND_IMPORT_MAX_MB;
  if (raw === undefined || raw === '') return DEFAULT_IMPORT_MAX_MB;
  const mb = Number(raw);
  if (!Number.isInteger(mb) || mb < 1)
    throw new Error(`COMPOUND_IMPORT_MAX_MB must be a whole number of megabytes, at least 1; got "${raw}".`);
  return mb;
}

/**
 * The folder of the chemistry data layers (CHEM_DATA_DIR; absolute, or relative to the project root),
 * which server.ts passes to lib/chem/third-party-data.ts; unset, the ones shipped in lib/chem/data/third-party/.
 */
export function chemDataDirSetting(): string | undefined {
  return process.env.CHEM_DATA_DIR || undefined;
}
