/**
 * Prometheus metrics for /mcp and the usage writer. The registry and its metrics are shared by the process
 * (lib/process-shared.ts): server.ts (which serves /mcp) and Next's bundle (which serves /api/metrics)
 * load separate copies of this module, and both must count into, and read from, the same metrics.
 *
 * The hot-path hooks are a counter increment on a pre-resolved child (tool × outcome) and one histogram
 * observation; tool names outside the registry share one label value, so callers cannot grow the
 * label sets.
 */
import client from 'prom-client';
import { processShared } from '../process-shared.ts';
import type { CallOutcome } from './call-labels.ts';
import { TOOL_LABELS, UNKNOWN_TOOL } from './call-labels.ts';

const OUTCOMES: CallOutcome[] = ['success', 'failure', 'rate_limited'];

interface Metrics {
  registry: client.Registry;
  calls: Map<string, Record<CallOutcome, client.Counter.Internal>>;
  callDuration: client.Histogram;
  limiterRejections: Record<'rate' | 'quota', client.Counter.Internal>;
  usageBatchSize: client.Histogram;
  usageWriteFailures: client.Counter;
}

function createMetrics(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const calls = new client.Counter({
    name: 'chemflow_mcp_tool_calls_total',
    help: 'tools/call requests with a valid key, by tool and outcome (success, failure = tool error, rate_limited).',
    labelNames: ['tool', 'outcome'] as const,
    registers: [registry],
  });
  const callDuration = new client.Histogram({
    name: 'chemflow_mcp_tool_call_duration_seconds',
    help: 'Time from admission to the committed usage row for admitted tools/call requests.',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const rejections = new client.Counter({
    name: 'chemflow_limiter_rejections_total',
    help: 'tools/call requests refused by the limiter, by reason (rate = per-second limit, quota = daily quota).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const usageBatchSize = new client.Histogram({
    name: 'chemflow_usage_write_batch_size',
    help: 'Call rows committed per usage-write transaction (group commit).',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [registry],
  });
  const usageWriteFailures = new client.Counter({
    name: 'chemflow_usage_write_failures_total',
    help: 'Usage-write transactions that failed (their calls were answered with 503).',
    registers: [registry],
  });
  // Every series exists from the start at 0, so rate() sees the first increment and dashboards list all tools.
  const child = <T extends string>(counter: client.Counter<T>, ...values: string[]) => {
    const labelled = counter.labels(...values);
    labelled.inc(0);
    return labelled;
  };
  const children = (tool: string) =>
    Object.fromEntries(OUTCOMES.map((o) => [o, child(calls, tool, o)])) as Record<CallOutcome, client.Counter.Internal>;
  return {
    registry,
    calls: new Map(TOOL_LABELS.map((tool) => [tool, children(tool)])),
    callDuration,
    limiterRejections: { rate: child(rejections, 'rate'), quota: child(rejections, 'quota') },
    usageBatchSize,
    usageWriteFailures,
  };
}

function metrics(): Metrics {
  return processShared('metrics', createMetrics);
}

/**
 * A tools/call's outcome; `seconds` for admitted calls (rate-limited ones have no run time). `tool` is
 * already a label (toolLabel); any other name still falls into UNKNOWN_TOOL's series.
 */
export function countToolCall(tool: string, outcome: CallOutcome, seconds?: number): void {
  const m = metrics();
  (m.calls.get(tool) ?? m.calls.get(UNKNOWN_TOOL)!)[outcome].inc();
  if (seconds !== undefined) m.callDuration.observe(seconds);
}

export function countLimiterRejection(reason: 'rate' | 'quota'): void {
  metrics().limiterRejections[reason].inc();
}

export function observeUsageBatch(size: number): void {
  metrics().usageBatchSize.observe(size);
}

export function countUsageWriteFailure(): void {
  metrics().usageWriteFailures.inc();
}

/** The exposition text and its content type, for GET /api/metrics. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
