/**
 * One benchmark row: a short warm-up, then autocannon with a fixed number of connections for a fixed
 * duration, reading the server's peak RSS over the measured window only.
 */
import autocannon, { type Result } from 'autocannon';
import { peakRssMb, resetPeakRss } from './processes.ts';

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  body?: unknown;
  headers?: Record<string, string>;
  /** Spread requests over these keys, one after another (Authorization: Bearer …). */
  keys?: string[];
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

export interface LoadMeasurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** VmHWM of the server process during this run (reset before it), in MB; null when not measurable. */
  peakRssMb: number | null;
  non2xx: number;
  /** Socket errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
}

function run(spec: LoadSpec, connections: number, duration: number): Promise<Result> {
  const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  const headers = { ...(spec.body === undefined ? {} : MCP_HEADERS), ...spec.headers };
  const keys = spec.keys ?? [];
  let next = 0;
  return autocannon({
    url: spec.url,
    connections,
    duration,
    requests: [{
      method: spec.method,
      headers,
      body,
      ...(keys.length ? { setupRequest: (request) => ({ ...request, headers: { ...headers, authorization: `Bearer ${keys[next++ % keys.length]}` } }) } : {}),
    }],
  });
}

export async function measure(spec: LoadSpec, serverPid: number, options: LoadOptions): Promise<LoadMeasurement> {
  if (options.warmupSeconds > 0) await run(spec, options.connections, options.warmupSeconds);
  resetPeakRss(serverPid);
  const result = await run(spec, options.connections, options.durationSeconds);
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
  return {
    requestsPerSecond: Math.round(result.requests.total / options.durationSeconds),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    peakRssMb: peakRssMb(serverPid),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes,
  };
}
