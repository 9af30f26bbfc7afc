/**
 * The shared mode's Redis connections: one for commands (the limiter's script, publishing key changes)
 * and one subscriber. Like getDb() and getMcpService(), they are shared by the process (lib/process-shared.ts): server.ts and Next's
 * bundle load separate copies of this module, and a key change made in the portal (Next) must publish
 * through the same connection the hot path (server.ts) uses.
 *
 * Fail fast, never queue: with Redis unreachable a command fails at once (no offline queue) or after
 * COMMAND_TIMEOUT_MS (a hung server), so /mcp can answer 503 within a second instead of piling calls
 * up; the client keeps reconnecting in the background and the first command after Redis returns works.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { config } from '../config.ts';
import { log } from '../ops/log.ts';
import { processShared, releaseProcessShared } from '../process-shared.ts';

const COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 1000;
const MAX_RECONNECT_DELAY_MS = 500;
/** How long a command waits for a connection that is being (re)established before it fails. */
const READY_WAIT_MS = 300;

interface Clients {
  commands: Redis;
  subscribers: Redis[];
}

/** Redis key and channel names, all under REDIS_KEY_PREFIX. */
export const redisNames = {
  /** Hash tag: both of a key's counters hash to one cluster slot, so one script may touch both. */
  keyTag: (prefix: string, keyId: string) => `{${prefix}:${keyId}}`,
  keyChanges: (prefix: string) => `${prefix}:key-changes`,
  /** The recent attempts of one counted key (an address, an email) of one attempt counter. */
  attempts: (prefix: string, counter: string, key: string) => `${prefix}:attempts:${counter}:${key}`,
};

export function openRedis(url: string, options: RedisOptions = {}): Redis {
  const client = new Redis(url, {
    ...options,
    enableOfflineQueue: false,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(50 * attempt, MAX_RECONNECT_DELAY_MS),
  });
  // Connection errors repeat while Redis is away; the failing commands are what callers see. Unheard,
  // an 'error' event would end the process.
  let reported = false;
  client.on('error', (error) => {
    (client as Tracked)[LAST_ERROR] = error.message;
    if (reported) return;
    reported = true;
    log('warn', 'Redis unreachable; /mcp tools/call answers 503 until it returns', { error: error.message });
  });
  client.on('ready', () => {
    if (reported) log('info', 'Redis reachable again');
    reported = false;
    delete (client as Tracked)[LAST_ERROR];
  });
  return client;
}

/**
 * The latest connection error of a client while it is not connected, to say why Redis is unreachable.
 * Kept on the client itself: the copy of this module that reads it (a Next route's) may not be the one
 * that opened the connection (server.ts's).
 */
const LAST_ERROR = Symbol.for('chemflow.redis.lastError');
type Tracked = Redis & { [LAST_ERROR]?: string };

export function lastConnectionError(client: Redis): string | undefined {
  return (client as Tracked)[LAST_ERROR];
}

function clients(): Clients {
  return processShared('redis', () => {
    const url = config().redisUrl;
    if (!url) throw new Error('The shared mode needs REDIS_URL');
    // Auto-pipelining sends the limiter scripts of all calls admitted in one event-loop turn in one
    // write: under load, most of a call's Redis cost was its own socket write.
    return { commands: openRedis(url, { enableAutoPipelining: true }), subscribers: [] };
  });
}

/** Whether REDIS_URL switched the shared mode on. */
export function sharedMode(): boolean {
  return config().redisUrl !== undefined;
}

/** The process-wide command connection (shared mode only). */
export function getRedis(): Redis {
  return clients().commands;
}

/**
 * Resolves once `client` is connected, or rejects after READY_WAIT_MS: commands are never queued, so a
 * brand-new connection (a CLI run, the first call after start) or one being re-established gets a
 * short moment, and an unreachable Redis a prompt error.
 */
export function whenReady(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  // One 'ready' listener per connection, however many calls are waiting for it.
  let ready = nextReady.get(client);
  if (!ready) {
    ready = new Promise<void>((resolve) => client.once('ready', resolve)).finally(() => nextReady.delete(client));
    nextReady.set(client, ready);
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Redis not reachable (connection ${client.status})`)),
      READY_WAIT_MS,
    );
    ready.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
const nextReady = new WeakMap<Redis, Promise<void>>();

/**
 * Calls `onMessage` for every message on `channel`, and `onResubscribed` each time the subscription is
 * (re)established: messages sent while disconnected are lost, so callers treat that as "anything may
 * have changed".
 */
export function subscribe(channel: string, onMessage: (message: string) => void, onResubscribed: () => void): void {
  const subscriber = openRedis(config().redisUrl!);
  clients().subscribers.push(subscriber);
  subscriber.on('message', (from, message) => from === channel && onMessage(message));
  subscriber.on('ready', () => {
    subscriber.subscribe(channel).then(onResubscribed, () => {});
  });
}

/**
 * Tells every instance that a key changed, after the change committed. Best effort: when Redis is
 * unreachable the change still arrives through PostgreSQL's NOTIFY (lib/keys/store.ts), so the portal
 * does not fail a change it has already committed.
 */
export async function publishKeyChange(keyId: string): Promise<void> {
  if (!sharedMode()) return;
  try {
    const redis = getRedis();
    await whenReady(redis);
    await redis.publish(redisNames.keyChanges(config().redisKeyPrefix), keyId);
  } catch (error) {
    log('warn', 'could not publish a key change on Redis (PostgreSQL NOTIFY still carries it)', {
      keyId,
      error: (error as Error).message,
    });
  }
}

/** Closes the connections (graceful shutdown, the CLI's exit). */
export async function closeRedis(): Promise<void> {
  const open = releaseProcessShared<Clients>('redis');
  if (!open) return;
  await Promise.all(
    [open.commands, ...open.subscribers].map((client) => client.quit().catch(() => client.disconnect())),
  );
}
