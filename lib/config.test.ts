/** The shared mode's settings: REDIS_URL only with PostgreSQL, and a prefix fit for Redis key names. */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { loadConfig } from './config.ts';

const saved = { ...process.env };
afterEach(() => {
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'REDIS_KEY_PREFIX']) {
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
