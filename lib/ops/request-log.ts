/**
 * The per-request summary line for /mcp tools/call: which request (the X-Request-Id sent to the
 * client), which key (its id, never the secret), which tool, how it ended. No bodies, no arguments.
 */
import type { CallOutcome } from './call-labels.ts';
import { log, logEnabled } from './log.ts';

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
