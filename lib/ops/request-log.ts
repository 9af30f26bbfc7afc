/**
 * The per-request summary line for /mcp tools/call: which request (the X-Request-Id sent to the
 * client), which key (its id, never the secret), which tool, how it ended. No bodies, no arguments.
 * Calls a limit refused are logged through a sampler per key (log-sampler.ts): a key flooding past its
 * quota writes a few lines a minute, not one per request.
 */
import type { CallOutcome } from './call-labels.ts';
import { log, logEnabled } from './log.ts';
import { createLogSampler } from './log-sampler.ts';

/** `tool` is the call's label (lib/ops/call-labels.ts), never the name as the caller sent it. */
export function logToolCall(
  requestId: string,
  keyId: string,
  tool: string,
  outcome: CallOutcome | 'unrecorded',
  status: number,
  latencyMs: number,
): void {
  if (!logEnabled('info')) return;
  log('info', 'mcp tools/call', { requestId, method: 'tools/call', tool, outcome, status, latencyMs, keyId });
}

const refusedCalls = createLogSampler();

/** A tools/call answered 429: the first few per key and minute, then one "N more suppressed" line. */
export function logRefusedToolCall(requestId: string, keyId: string, tool: string, reason: string): void {
  if (!logEnabled('info')) return;
  refusedCalls.log(`key ${keyId}`, 'info', 'mcp tools/call', {
    requestId,
    method: 'tools/call',
    tool,
    outcome: 'rate_limited',
    reason,
    status: 429,
    latencyMs: 0,
    keyId,
  });
}
