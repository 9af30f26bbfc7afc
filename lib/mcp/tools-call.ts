/**
 * A tools/call once its key is verified and its params checked, in four steps: admit it through the
 * limiter, run the tool (run-tool.ts), record its usage row, and only then answer. A refused call is
 * counted off the hot path and answered 429; a call whose usage row cannot be recorded gets no answer
 * but a 503 (nothing unbilled goes out); a database that cannot be read fails the call closed with a 503.
 */
import { config } from '../config.ts';
import type { KeyRow } from '../db/hot-path.ts';
import { hasErrorCode } from '../error-code.ts';
import { type Admission, LIMITER_UNAVAILABLE } from '../limits/limiter.ts';
import { upgradeGuidance } from '../limits/policy.ts';
import { errorText, log } from '../ops/log.ts';
import { countLimiterRejection, countToolCall } from '../ops/metrics.ts';
import { logRefusedToolCall, logToolCall } from '../ops/request-log.ts';
import { type LimitReason, readableAddress } from '../usage/refused-calls.ts';
import { newRequestId } from '../usage/request-id.ts';
import { toolLabel } from './registry.ts';
import type { McpAnswer, McpRequest } from './request.ts';
import { jsonError, toolCallAnswer } from './responses.ts';
import { runTool, type ToolOutcome } from './run-tool.ts';
import type { McpService } from './service.ts';

interface ToolsCall {
  request: McpRequest;
  id: string | number;
  /** The tool name as the caller sent it (checked to be a string). */
  name: string;
  args: unknown;
  key: KeyRow;
}

/** What every step of a call shares: the services, the call's clock and the CORS headers of its answer. */
interface CallContext {
  service: McpService;
  now: number;
  /** One deadline for every wait on the database: key lookup, quota lookup, usage commit. */
  deadline: number;
  cors: Record<string, string>;
}

export async function answerToolsCall(call: ToolsCall, context: CallContext): Promise<McpAnswer> {
  // Usage rows, the log and metrics hold this label, never the caller's text (see toolLabel). A name
  // outside the catalogue still goes through the limiter and counts as a failure: the per-second limit
  // and the daily quota bound everything a key can make the server do.
  const tool = toolLabel(call.name);
  const admitted = await admit(call, tool, context);
  if (admitted.refused) return admitted.refused;
  const started = performance.now();
  const outcome = await runTool(call.name, call.args);
  const result = outcome.errorCode ? 'failure' : 'success';
  const unrecorded = await record(call, tool, outcome, result, started, admitted.requestId, context);
  if (unrecorded) return unrecorded;
  const seconds = (performance.now() - started) / 1000;
  countToolCall(tool, result, seconds);
  logToolCall(admitted.requestId, call.key.id, tool, result, 200, Math.round(seconds * 10_000) / 10);
  return toolCallAnswer(call.id, outcome, admitted.headers);
}

type Admitted =
  | { refused: McpAnswer; requestId?: undefined; headers?: undefined }
  | { refused?: undefined; requestId: string; headers: Record<string, string> };

/** The limiter's decision: the headers of an admitted call's answer, or the answer refusing it (429, 503). */
async function admit(call: ToolsCall, tool: string, { service, now, deadline, cors }: CallContext): Promise<Admitted> {
  let admission: Admission;
  try {
    admission = await service.limiter.admit(call.key, now, deadline);
  } catch (error) {
    // Fail closed: without the shared counters no instance can know the key's limits are respected.
    if (hasErrorCode(error, LIMITER_UNAVAILABLE)) {
      return {
        refused: jsonError(
          503,
          LIMITER_UNAVAILABLE,
          'The rate limiter is unreachable, so the call was not run; please retry shortly.',
          { 'retry-after': '1', ...cors },
        ),
      };
    }
    // The limiter reads the key's usage so far from the database the first time it sees the key each day.
    return { refused: databaseUnavailable('quota lookup failed', error, cors) };
  }
  const requestId = newRequestId(now);
  const headers = { ...rateLimitHeaders(admission), 'x-request-id': requestId, ...cors };
  if (admission.admitted) return { requestId, headers };

  // No awaited write and no row per refusal: a key past its limits is counted and sampled in memory,
  // written about once a second (refused-calls.ts), and its log lines are sampled per key.
  const reason = limitReason(admission);
  service.refusedCalls.note({
    keyId: call.key.id,
    reason,
    tool,
    requestId,
    clientAddress: readableAddress(call.request.clientAddress),
    at: now,
    day: service.quotaDay(now).day,
  });
  countToolCall(tool, 'rate_limited');
  countLimiterRejection(admission.reason!);
  logRefusedToolCall(requestId, call.key.id, tool, reason);
  return { refused: rateLimited(call.request, admission, call.key.tierId, headers) };
}

/** Commits the call's usage row; the 503 that withholds the answer when it cannot be committed. */
async function record(
  call: ToolsCall,
  tool: string,
  outcome: ToolOutcome,
  result: 'success' | 'failure',
  started: number,
  requestId: string,
  { service, now, deadline, cors }: CallContext,
): Promise<McpAnswer | undefined> {
  try {
    await service.recorder.record(
      {
        requestId,
        keyId: call.key.id,
        tool,
        outcome: result,
        errorCode: outcome.errorCode,
        latencyMs: Math.round((performance.now() - started) * 1000) / 1000,
        createdAt: now,
        day: service.quotaDay(now).day,
      },
      deadline,
    );
    return undefined;
  } catch (error) {
    logError('usage write failed', error);
    logToolCall(requestId, call.key.id, tool, 'unrecorded', 503, Math.round((performance.now() - started) * 10) / 10);
    return jsonError(
      503,
      'usage_store_unavailable',
      'The call could not be recorded, so its answer was withheld; please retry shortly.',
      { 'retry-after': '1', ...cors },
    );
  }
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
