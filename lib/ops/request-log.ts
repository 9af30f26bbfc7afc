/**
 * The per-request summary line for /mcp tools/call: which request (the X-Request-Id sent to the
 * client), which key (its id, never the secret), which tool, how it ended. No bodies, no arguments.
 */
import type { CallOutcome } from '../db/hot-path.ts';
import { log, logEnabled } from './log.ts';

/** Tool names come from the caller; a long one is cut so a request cannot bloat the log. */
const MAX_TOOL_NAME = 100;

export function logToolCall(requestId: string, keyId: string, tool: string, outcome: CallOutcome | 'unrecorded', status: number, latencyMs: number): void {
  if (!logEnabled('info')) return;
  log('info', 'mcp tools/call', {
    requestId, method: 'tools/call', tool: tool.length > MAX_TOOL_NAME ? `${tool.slice(0, MAX_TOOL_NAME)}…` : tool,
    outcome, status, latencyMs, keyId,
  });
}
