/**
 * The shared mode's settings: REDIS_URL only with PostgreSQL, and a prefix fit for Redis key names. The
 * messaging-app doors: off unless their token is set, and refused at start when set the platform's wrong way.
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { loadConfig } from './config.ts';

const CHANNEL_VARIABLES = [
  'WECHAT_TOKEN',
  'WECHAT_ENCODING_AES_KEY',
  'WECHAT_APP_ID',
  'WECHAT_APP_SECRET',
  'WECHAT_LANGUAGE',
  'TELEGRAM_BOT_TOKEN',
  'TELEGRAM_WEBHOOK_SECRET',
  'TELEGRAM_LANGUAGE',
];
const LIMIT_VARIABLES = [
  'TRUST_PROXY',
  'MAX_CONNECTIONS_PER_ADDRESS',
  'MAX_REQUESTS_PER_ADDRESS',
  'HEADERS_TIMEOUT_SECONDS',
  'BODY_TIMEOUT_SECONDS',
  'BODY_MIN_BYTES_PER_SECOND',
  'METRICS_OPEN',
];
const saved = { ...process.env };
afterEach(() => {
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'REDIS_KEY_PREFIX', ...CHANNEL_VARIABLES, ...LIMIT_VARIABLES]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

function withEnv(env: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return loadConfig();
}

test('without REDIS_URL there is no shared mode, on either database', () => {
  assert.equal(withEnv({ DATABASE_URL: undefined, REDIS_URL: undefined }).redisUrl, undefined);
  assert.equal(withEnv({ DATABASE_URL: 'postgresql://db/chemflow', REDIS_URL: '' }).redisUrl, undefined);
});

test('REDIS_URL with PostgreSQL switches the shared mode on; the prefix defaults to "chemflow"', () => {
  const settings = withEnv({
    DATABASE_URL: 'postgresql://db/chemflow',
    REDIS_URL: 'redis://cache:6379',
    REDIS_KEY_PREFIX: undefined,
  });
  assert.equal(settings.redisUrl, 'redis://cache:6379');
  assert.equal(settings.redisKeyPrefix, 'chemflow');
  assert.equal(withEnv({ REDIS_KEY_PREFIX: 'staging-2' }).redisKeyPrefix, 'staging-2');
});

test('REDIS_URL with SQLite is refused with a message that says why', () => {
  assert.throws(
    () => withEnv({ DATABASE_URL: 'file:./data/x.db', REDIS_URL: 'redis://cache:6379' }),
    /REDIS_URL needs DATABASE_URL=postgresql/,
  );
  assert.throws(
    () => withEnv({ DATABASE_URL: undefined, REDIS_URL: 'redis://cache:6379' }),
    /Unset REDIS_URL to run one instance on SQLite/,
  );
});

test('a REDIS_URL that is not redis:// and a prefix Redis names cannot hold are refused', () => {
  assert.throws(
    () => withEnv({ DATABASE_URL: 'postgresql://db/chemflow', REDIS_URL: 'http://cache:6379' }),
    /REDIS_URL must be redis:\/\//,
  );
  assert.throws(() => withEnv({ REDIS_URL: undefined, REDIS_KEY_PREFIX: 'a {b}' }), /REDIS_KEY_PREFIX must be/);
});

test('the messaging apps are off without their tokens; WeChat answers in Chinese and Telegram in English unless told', () => {
  const off = withEnv(Object.fromEntries(CHANNEL_VARIABLES.map((name) => [name, undefined])));
  assert.deepEqual([off.wechat, off.telegram], [undefined, undefined]);
  const on = withEnv({
    WECHAT_TOKEN: 'abc123',
    TELEGRAM_BOT_TOKEN: '123456:ABC-def_1',
    TELEGRAM_WEBHOOK_SECRET: 's3cret',
  });
  assert.deepEqual([on.wechat?.language, on.wechat?.apiBase], ['zh', 'https://api.weixin.qq.com']);
  assert.deepEqual([on.telegram?.language, on.telegram?.apiRoot], ['en', 'https://api.telegram.org']);
  assert.equal(withEnv({ WECHAT_LANGUAGE: 'EN' }).wechat?.language, 'en');
});

test('channel settings the platforms would reject stop the server with the variable named', () => {
  const refused: [Record<string, string | undefined>, RegExp][] = [
    [{ WECHAT_TOKEN: 'a b' }, /WECHAT_TOKEN must be 3 to 32 letters or digits/],
    [{ WECHAT_TOKEN: 'abc123', WECHAT_ENCODING_AES_KEY: 'short' }, /WECHAT_ENCODING_AES_KEY must be the 43/],
    [{ WECHAT_TOKEN: 'abc123', WECHAT_ENCODING_AES_KEY: 'a'.repeat(43) }, /needs WECHAT_APP_ID/],
    [
      { WECHAT_TOKEN: 'abc123', WECHAT_ENCODING_AES_KEY: undefined, WECHAT_LANGUAGE: 'fr' },
      /WECHAT_LANGUAGE must be zh or en/,
    ],
    [{ WECHAT_TOKEN: undefined, TELEGRAM_BOT_TOKEN: '123456:ABC' }, /needs TELEGRAM_WEBHOOK_SECRET/],
    [{ TELEGRAM_BOT_TOKEN: '123456:ABC', TELEGRAM_WEBHOOK_SECRET: 'has space' }, /needs TELEGRAM_WEBHOOK_SECRET/],
    [{ TELEGRAM_BOT_TOKEN: 'not-a-token', TELEGRAM_WEBHOOK_SECRET: 'ok' }, /TELEGRAM_BOT_TOKEN must be the token/],
  ];
  for (const [env, message] of refused) assert.throws(() => withEnv(env), message);
});

test('per-address limits: defaults, no connection cap behind the proxy unless set, and bad values refused at start', () => {
  const unset = Object.fromEntries(LIMIT_VARIABLES.map((name) => [name, undefined]));
  const direct = withEnv(unset);
  assert.equal(direct.maxConnectionsPerAddress, 64);
  assert.equal(direct.maxRequestsPerAddress, 32);
  assert.equal(direct.headersTimeoutMs, 20_000);
  assert.equal(direct.bodyTimeoutMs, 30_000);
  assert.equal(direct.bodyMinBytesPerSecond, 1024);
  assert.equal(direct.metricsOpen, false);
  assert.equal(withEnv({ ...unset, TRUST_PROXY: '1' }).maxConnectionsPerAddress, 0);
  assert.equal(
    withEnv({ ...unset, TRUST_PROXY: '1', MAX_CONNECTIONS_PER_ADDRESS: '500' }).maxConnectionsPerAddress,
    500,
  );
  assert.equal(withEnv({ ...unset, METRICS_OPEN: '1' }).metricsOpen, true);
  assert.throws(
    () => withEnv({ ...unset, HEADERS_TIMEOUT_SECONDS: '0' }),
    /HEADERS_TIMEOUT_SECONDS must be an integer ≥ 1/,
  );
  assert.throws(() => withEnv({ ...unset, MAX_REQUESTS_PER_ADDRESS: '-1' }), /MAX_REQUESTS_PER_ADDRESS/);
  assert.throws(() => withEnv({ ...unset, METRICS_OPEN: 'maybe' }), /METRICS_OPEN must be 1 or 0/);
});
