/**
 * The tail of a tools/call once its key is verified and its params checked: admit it through the
 * limiter, run the tool, commit its usage row, and only then answer. A refused call is counted off the
 * hot path and answered 429; a call whose usage row cannot be committed gets no answer but a 503 (nothing unbilled
 * goes out); a database that cannot be read fails the call closed with a 503.
 */
import { config } from '../config.ts';
import type { KeyRow } from '../db/hot-path.ts';
import { type Admission, LimiterUnavailableError } from '../limits/limiter.ts';
import { upgradeGuidance } from '../limits/policy.ts';
import { errorText, log } from '../ops/log.ts';
import { countLimiterRejection, countToolCall } from '../ops/metrics.ts';
import { logRefusedToolCall, logToolCall } from '../ops/request-log.ts';
import { type LimitReason, readableAddress } from '../usage/refused-calls.ts';
import { newRequestId } from '../usage/request-id.ts';
import { callTool } from './call-tool.ts';
import { toolLabel } from './registry.ts';
import type { McpAnswer, McpRequest } from './request.ts';
import { jsonError, toolCallAnswer } from './responses.ts';
import type { McpService } from './service.ts';

export interface ToolCall {
  request: McpRequest;
  id: string | number;
  /** The tool name as the caller sent it (checked to be a string). */
  name: string;
  args: unknown;
  key: KeyRow;
}

export async function answerToolCall(
  call: ToolCall,
  service: McpService,
  now: number,
  deadline: number,
  cors: Record<string, string>,
): Promise<McpAnswer> {
  // Usage rows, the log and metrics hold this label, never the caller's text (see toolLabel). A name
  // outside the catalogue still goes through the limiter and counts as a failure: the per-second limit
  // and the daily quota bound everything a key can make the server do.
  const { key } = call;
  const tool = toolLabel(call.name);
  let admission: Admission;
  try {
    admission = await service.limiter.admit(key, now, deadline);
  } catch (error) {
    // Fail closed: without the shared counters no instance can know the key's limits are respected.
    if (error instanceof LimiterUnavailableError) {
      return jsonError(
        503,
        'limiter_unavailable',
        'The rate limiter is unreachable, so the call was not run; please retry shortly.',
        { 'retry-after': '1', ...cors },
      );
    }
    // The limiter reads the key's usage so far from the database the first time it sees the key each day.
    return databaseUnavailable('quota lookup failed', error, cors);
  }
  const limitHeaders = rateLimitHeaders(admission);
  const requestId = newRequestId(now);
  const day = service.quotaDay(now).day;

  if (!admission.admitted) {
    // No awaited write and no row per refusal: a key past its limits is counted and sampled in memory,
    // written about once a second (refused-calls.ts), and its log lines are sampled per key.
    const reason = limitReason(admission);
    service.refusedCalls.note({
      keyId: key.id,
      reason,
      tool,
      requestId,
      clientAddress: readableAddress(call.request.clientAddress),
      at: now,
      day,
    });
    countToolCall(tool, 'rate_limited');
    countLimiterRejection(admission.reason!);
    logRefusedToolCall(requestId, key.id, tool, reason);
    return rateLimited(call.request, admission, key.tierId, { ...limitHeaders, 'x-request-id': requestId, ...cors });
  }

  const started = performance.now();
  const outcome = await callTool(call.name, call.args);
  const result = outcome.errorCode ? 'failure' : 'success';
  try {
    await service.recorder.record(
      {
        requestId,
        keyId: key.id,
        tool,
        outcome: result,
        errorCode: outcome.errorCode,
        latencyMs: Math.round((performance.now() - started) * 1000) / 1000,
        createdAt: now,
        day,
      },
      deadline,
    );
  } catch (error) {
    logError('usage write failed', error);
    logToolCall(requestId, key.id, tool, 'unrecorded', 503, Math.round((performance.now() - started) * 10) / 10);
    return jsonError(
      503,
      'usage_store_unavailable',
      'The call could not be recorded, so its answer was withheld; please retry shortly.',
      { 'retry-after': '1', ...cors },
    );
  }
  const seconds = (performance.now() - started) / 1000;
  countToolCall(tool, result, seconds);
  logToolCall(requestId, key.id, tool, result, 200, Math.round(seconds * 10_000) / 10);
  return toolCallAnswer(call.id, outcome, { ...limitHeaders, 'x-request-id': requestId, ...cors });
}

function rateLimitHeaders(admission: Admission): Record<string, string> {
  return {
    'x-ratelimit-limit': String(admission.limit),
    'x-ratelimit-remaining': String(admission.remaining),
    'x-ratelimit-reset': String(admission.resetAt),
  };
}

/** The 429 body's `reason`, also the reason its refusal is counted under. */
const limitReason = (admission: Admission): LimitReason =>
  admission.reason === 'quota' ? 'daily_quota' : 'rate_per_second';

function rateLimited(
  request: McpRequest,
  admission: Admission,
  tier: string,
  headers: Record<string, string>,
): McpAnswer {
  const message =
    admission.reason === 'quota'
      ? `Daily quota of ${admission.limit} calls used up; it resets at ${new Date(admission.resetAt * 1000).toISOString()}.`
      : `Too many calls per second for this key; retry in ${admission.retryAfter} s.`;
  const baseUrl = config().publicUrl || new URL(request.url).origin;
  return jsonError(
    429,
    'rate_limit_exceeded',
    message,
    { ...headers, 'retry-after': String(admission.retryAfter) },
    {
      reason: limitReason(admission),
      tier,
      upgrade: upgradeGuidance(baseUrl),
    },
  );
}

/**
 * The database did not answer (down, unreachable, locked past the hot path's deadline): the call cannot
 * be checked, so it is not run. Clients get a prompt 503 they can retry; the operator gets the error.
 */
export function databaseUnavailable(what: string, error: unknown, cors: Record<string, string>): McpAnswer {
  logError(what, error);
  return jsonError(
    503,
    'database_unavailable',
    'The service cannot reach its database right now, so the call was not run; please retry shortly.',
    { 'retry-after': '1', ...cors },
  );
}

function logError(msg: string, error: unknown): void {
  log('error', msg, { error: errorText(error) });
}
