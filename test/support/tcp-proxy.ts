/**
 * A TCP proxy between a server under test and its database, for outage tests: the database itself keeps
 * running (other suites share it) while the server under test sees it go away and come back.
 * - cut(): drops every open connection and refuses new ones, like a database that went down;
 * - stall(): keeps connections open but passes nothing either way, like a host that stopped answering;
 * - restore(): passes traffic again, as before.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { TestContext } from 'node:test';
import { scratchPostgresUrl } from './test-databases.ts';
import { type EnvOverrides, startTestServer, type TestServer } from './test-server.ts';

export interface TcpProxy {
  port: number;
  cut(): void;
  stall(): void;
  restore(): void;
  close(): Promise<void>;
}

type Mode = 'open' | 'cut' | 'stalled';

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: Mode = 'open';
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();

  const server = net.createServer((client) => {
    if (mode === 'cut') return void client.destroy();
    const upstream = net.connect(target);
    const pair = { client, upstream };
    pairs.add(pair);
    // Data is forwarded only while open; a stalled pair just buffers (paused sockets apply back-pressure).
    client.on('data', (chunk) => {
      if (mode === 'open') upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (mode === 'open') client.write(chunk);
    });
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  function cut(): void {
    mode = 'cut';
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  }

  return {
    port: (server.address() as net.AddressInfo).port,
    cut,
    stall() {
      // Bytes that arrive while stalled are dropped, so a stalled connection never works again; that is
      // what a half-dead connection does, and the pool must replace it.
      mode = 'stalled';
    },
    restore() {
      mode = 'open';
    },
    async close() {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface ServerBehindProxy {
  server: TestServer;
  proxy: TcpProxy;
  /** The scratch database's own URL, bypassing the proxy (for the CLI and for reading the tables). */
  directUrl: string;
}

/**
 * The production server on a scratch PostgreSQL database that it reaches only through a TcpProxy.
 * Everything is stopped when the test ends: the server first, then the proxy, then the database is
 * dropped. Undefined when PostgreSQL is not available (the test is skipped, except under CI=true).
 */
export async function startServerBehindProxy(
  t: TestContext,
  extraEnv: EnvOverrides = {},
): Promise<ServerBehindProxy | undefined> {
  let server: TestServer | undefined;
  let proxy: TcpProxy | undefined;
  // Registered before the scratch database's cleanup, so both let go of it before it is dropped.
  t.after(async () => server?.stop());
  t.after(async () => proxy?.close());
  const directUrl = await scratchPostgresUrl(t);
  if (!directUrl) return undefined;
  const direct = new URL(directUrl);
  proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const proxied = new URL(directUrl);
  proxied.port = String(proxy.port);
  // PostgreSQL deployments must set their secrets (lib/secrets.ts).
  server = await startTestServer({
    DATABASE_URL: proxied.toString(),
    KEY_HASH_SECRET: randomBytes(32).toString('hex'),
    AUTH_SECRET: randomBytes(32).toString('hex'),
    ...extraEnv,
  });
  return { server, proxy, directUrl };
}
