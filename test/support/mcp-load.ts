/**
 * Keeps /mcp as busy as this process can make it: keep-alive loops send tools/call, each loop with one
 * of the given keys, until stopped or a bound (time or calls) is reached. Every answer's status is
 * counted and the request id of every 200 kept, so a test can compare what was answered with what the
 * server recorded. Plain node:http with a keep-alive agent: cheaper per call than fetch, so the server,
 * not the client, is what limits the rate.
 */
import http from 'node:http';
import { MCP_HEADERS } from './mcp-client.ts';

export interface LoadOptions {
  /** Concurrent loops (connections). */
  connections?: number;
  /** Stop by itself after this long, whatever happens. */
  maxMs?: number;
  /** Stop by itself after this many calls in all. */
  maxCalls?: number;
}

export interface LoadReport {
  calls: number;
  seconds: number;
  /** Answers by HTTP status ("error" for a failed request). */
  statuses: Record<string, number>;
  /** X-Request-Id of every 200, per key. */
  answered: Map<string, string[]>;
}

export interface McpLoad {
  /** Resolves once `count` calls have been answered (or the load has stopped). */
  answeredAtLeast(count: number): Promise<void>;
  /** Stops sending, waits for the calls in flight, and reports. */
  stop(): Promise<LoadReport>;
}

const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'service_query_compound', arguments: { compound_name: 'water' } },
});

export function driveMcp(
  mcpUrl: string,
  keys: string[],
  { connections = 24, maxMs = 120_000, maxCalls = 500_000 }: LoadOptions = {},
): McpLoad {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const started = performance.now();
  const report: LoadReport = { calls: 0, seconds: 0, statuses: {}, answered: new Map(keys.map((key) => [key, []])) };
  let stopped = false;
  const bounded = setTimeout(() => (stopped = true), maxMs);
  const waiters: { count: number; resolve: () => void }[] = [];

  function settle(): void {
    for (const waiter of [...waiters]) {
      if (stopped || report.calls >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }

  function call(key: string): Promise<void> {
    return new Promise((done) => {
      const request = http.request(
        mcpUrl,
        {
          method: 'POST',
          agent,
          headers: { ...MCP_HEADERS, authorization: `Bearer ${key}`, 'content-length': Buffer.byteLength(BODY) },
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            const status = String(response.statusCode);
            report.statuses[status] = (report.statuses[status] ?? 0) + 1;
            if (response.statusCode === 200) report.answered.get(key)!.push(String(response.headers['x-request-id']));
            done();
          });
        },
      );
      request.on('error', () => {
        report.statuses.error = (report.statuses.error ?? 0) + 1;
        done();
      });
      request.end(BODY);
    });
  }

  async function loop(key: string): Promise<void> {
    while (!stopped) {
      await call(key);
      if (++report.calls >= maxCalls) stopped = true;
      settle();
    }
  }

  const loops = Promise.all(Array.from({ length: connections }, (_, i) => loop(keys[i % keys.length]))).then(() => {
    settle();
    report.seconds = (performance.now() - started) / 1000;
  });

  return {
    answeredAtLeast(count) {
      return new Promise((resolve) => {
        waiters.push({ count, resolve });
        settle();
      });
    },
    async stop() {
      stopped = true;
      clearTimeout(bounded);
      await loops;
      agent.destroy();
      return report;
    },
  };
}
