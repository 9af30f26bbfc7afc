/**
 * Load for the benchmark's rows: autocannon with a fixed number of connections for a fixed time, reading
 * the server's peak RSS over the measured window only. A row is measured in rounds (see main.ts), which
 * combineRounds adds up.
 */
import autocannon, { type Result } from 'autocannon';
import { cpuTimeMs, peakRssMb, resetPeakRss } from './processes.ts';

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
  /** Measured seconds per row in all, split evenly over the rounds. */
  durationSeconds: number;
  /** Unmeasured seconds per row before the first round. */
  warmupSeconds: number;
  /** How many times the rows take turns; see tools/bench/main.ts. */
  rounds: number;
}

/** One round of one row. */
export interface RoundMeasurement {
  requests: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  /** VmHWM of the server process during this round (reset before it), in MB; null when not measurable. */
  peakRssMb: number | null;
  /** CPU time the server process used during this round, in ms; null when not measurable. */
  serverCpuMs: number | null;
  non2xx: number;
  /** Socket errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
}

/** A row over all its rounds. */
export interface LoadMeasurement {
  requestsPerSecond: number;
  /** Medians of the rounds' p50 and p99 (autocannon reports percentiles per run, not mergeable histograms). */
  p50Ms: number;
  p99Ms: number;
  peakRssMb: number | null;
  /** Server CPU time per answered request, in µs (null when not measurable). */
  cpuPerRequestUs: number | null;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
}

/** The headers of a row's requests, less the key (see run, and answer.ts, which sends the first key). */
export function requestHeaders(spec: LoadSpec): Record<string, string> {
  return { ...(spec.body === undefined ? {} : MCP_HEADERS), ...spec.headers };
}

function run(spec: LoadSpec, connections: number, duration: number): Promise<Result> {
  const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  const headers = requestHeaders(spec);
  const keys = spec.keys ?? [];
  let next = 0;
  return autocannon({
    url: spec.url,
    connections,
    duration,
    requests: [
      {
        method: spec.method,
        headers,
        body,
        ...(keys.length
          ? {
              setupRequest: (request) => ({
                ...request,
                headers: { ...headers, authorization: `Bearer ${keys[next++ % keys.length]}` },
              }),
            }
          : {}),
      },
    ],
  });
}

export async function warmUp(spec: LoadSpec, options: LoadOptions): Promise<void> {
  if (options.warmupSeconds > 0) await run(spec, options.connections, options.warmupSeconds);
}

export async function measureRound(spec: LoadSpec, serverPid: number, options: LoadOptions): Promise<RoundMeasurement> {
  const seconds = options.durationSeconds / options.rounds;
  resetPeakRss(serverPid);
  const cpuBefore = cpuTimeMs(serverPid);
  const result = await run(spec, options.connections, seconds);
  const cpuAfter = cpuTimeMs(serverPid);
  return {
    requests: result.requests.total,
    seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    peakRssMb: peakRssMb(serverPid),
    serverCpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * A row's rounds as one measurement: throughput and server CPU per request over the whole measured
 * time, median latencies, the highest peak.
 */
export function combineRounds(rounds: RoundMeasurement[]): LoadMeasurement {
  if (rounds.length === 0) throw new Error('combineRounds needs at least one round');
  const sum = (pick: (r: RoundMeasurement) => number) => rounds.reduce((total, r) => total + pick(r), 0);
  const peaks = rounds.map((r) => r.peakRssMb).filter((p): p is number => p !== null);
  const cpuKnown = rounds.every((r) => r.serverCpuMs !== null) && sum((r) => r.requests) > 0;
  const statusCodes: Record<string, number> = {};
  for (const r of rounds)
    for (const [code, count] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  return {
    requestsPerSecond: Math.round(sum((r) => r.requests) / sum((r) => r.seconds)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    peakRssMb: peaks.length ? Math.max(...peaks) : null,
    cpuPerRequestUs: cpuKnown ? Math.round((sum((r) => r.serverCpuMs!) * 1000) / sum((r) => r.requests)) : null,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    statusCodes,
  };
}
