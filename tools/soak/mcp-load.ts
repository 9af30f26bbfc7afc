/**
 * tools/call load: every key is driven at OVERDRIVE × its per-second limit for the whole run, each call
 * a body from CALL_MIX, and every answer is judged against what the key's state says it must be:
 * - 200 with the tool result the call plan expects (a success, or that tool error);
 * - 429 rate_per_second or daily_quota (counted per allowance, for the quota check);
 * - 401 while support has the key disabled, or for the old secret after a reissue.
 * A call in flight while support changes its key may get either answer of the change; any other
 * answer, a network error or a timeout is unexpected.
 */
import { MCP_HEADERS } from '../bench/load.ts';
import { describeError, type Observations } from './observations.ts';
import { CALL_MIX, OVERDRIVE, type PlannedKey } from './plan.ts';
import type { KeyTally } from './verdict.ts';

/** At most this many calls of one key in flight; a slower server gets fewer calls, not a pile-up. */
const MAX_IN_FLIGHT_PER_KEY = 8;
const CALL_TIMEOUT_MS = 30_000;
const KIND = 'tools/call';

interface Change {
  startedAt: number;
  endedAt: number;
}

/**
 * One key of the plan over the run: its current secret (reissues swap it), what support did to it, and
 * the tally of its allowance, which reissues keep (a successor continues its predecessor's quota).
 */
export class KeySlot {
  keyId: string;
  secret: string;
  ratePerSecond: number;
  disabled = false;
  readonly changes: Change[] = [];
  /** When the last settings change was saved: quota refusals of calls sent after it are under the final quota. */
  lastSettingsChangeAt = -Infinity;
  inFlight = 0;
  sent = 0;
  private readonly allowance: KeyTally;

  /** `tallies` gets the slot's tally under its first key id. */
  constructor(
    readonly plan: PlannedKey,
    keyId: string,
    secret: string,
    tallies: Map<string, KeyTally>,
  ) {
    this.keyId = keyId;
    this.secret = secret;
    this.ratePerSecond = plan.ratePerSecond;
    this.allowance = {
      keyIds: [keyId],
      label: plan.label,
      quotas: [plan.dailyQuota],
      admitted: 0,
      refused: { rate_per_second: 0, daily_quota: 0 },
      unanswered: 0,
      quotaRefusedUnderFinalQuota: false,
    };
    tallies.set(keyId, this.allowance);
  }

  tally(): KeyTally {
    return this.allowance;
  }

  /** Support is about to change the key: calls overlapping the change may get either answer. */
  beginChange(): Change {
    const change = { startedAt: performance.now(), endedAt: Infinity };
    this.changes.push(change);
    return change;
  }

  endChange(change: Change): void {
    change.endedAt = performance.now();
  }

  reissued(keyId: string, secret: string): void {
    this.keyId = keyId;
    this.secret = secret;
    this.allowance.keyIds.push(keyId);
  }

  settingsChanged(ratePerSecond: number, dailyQuota: number): void {
    this.ratePerSecond = ratePerSecond;
    const tally = this.tally();
    tally.quotas.push(dailyQuota);
    // A refusal under the old quota says nothing about the new one.
    tally.quotaRefusedUnderFinalQuota = false;
    this.lastSettingsChangeAt = performance.now();
  }

  overlapsChange(sentAt: number, answeredAt: number): boolean {
    return this.changes.some((c) => sentAt <= c.endedAt && answeredAt >= c.startedAt);
  }
}

/** The parts of a tools/call answer's JSON-RPC message the load reads. */
interface ToolCallMessage {
  result?: { isError?: boolean; content: { text: string }[] };
}

function sseMessage(text: string): ToolCallMessage | undefined {
  const data = text.split('\n').find((line) => line.startsWith('data:'));
  return data ? JSON.parse(data.slice('data:'.length)) : undefined;
}

let nextRequestId = 1;

async function callOnce(mcpUrl: string, slot: KeySlot, observations: Observations): Promise<void> {
  const call = CALL_MIX[slot.sent++ % CALL_MIX.length];
  const { secret, disabled } = slot;
  const quota = slot.tally().quotas.at(-1)!;
  const sentAt = performance.now();
  const what = `${KIND} ${slot.plan.label}`;
  let status: number;
  let text: string;
  let limitHeader: string | null;
  try {
    const response = await fetch(mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${secret}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: nextRequestId++,
        method: 'tools/call',
        params: { name: call.name, arguments: call.arguments },
      }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    status = response.status;
    limitHeader = response.headers.get('x-ratelimit-limit');
    text = await response.text();
  } catch (error) {
    slot.tally().unanswered++;
    observations.fail(KIND, 'no answer', what, describeError(error));
    return;
  }
  const inChange = slot.overlapsChange(sentAt, performance.now());
  const tally = slot.tally();
  // The limiter must judge every call by the quota the key has now, not a cached older one.
  if ((status === 200 || status === 429) && !inChange && limitHeader !== String(quota)) {
    observations.unexpected.push({
      what: `${KIND} X-RateLimit-Limit`,
      problem: `${slot.plan.label}: answered ${status} with X-RateLimit-Limit ${limitHeader}, but the key's daily quota is ${quota}`,
    });
  }
  if (status === 200) {
    tally.admitted++;
    const result = sseMessage(text)?.result;
    const code = result?.isError ? JSON.parse(result.content[0].text).error : result ? 'ok' : undefined;
    const answer = code === 'ok' ? '200 success' : `200 tool error ${code}`;
    if (disabled && !inChange)
      return observations.fail(KIND, answer, what, `a disabled key was admitted (${call.name})`);
    if (code !== call.expect)
      return observations.fail(
        KIND,
        answer,
        what,
        `${call.name} ${JSON.stringify(call.arguments)} answered ${code ?? text.slice(0, 200)}, expected ${call.expect}`,
      );
    return observations.count(KIND, answer);
  }
  const body = (() => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  })();
  if (status === 429 && (body?.reason === 'rate_per_second' || body?.reason === 'daily_quota')) {
    tally.refused[body.reason as 'rate_per_second' | 'daily_quota']++;
    if (body.reason === 'daily_quota' && sentAt > slot.lastSettingsChangeAt && !inChange)
      tally.quotaRefusedUnderFinalQuota = true;
    if (disabled && !inChange)
      return observations.fail(KIND, `429 ${body.reason}`, what, 'a disabled key reached the limiter');
    return observations.count(KIND, `429 ${body.reason}`);
  }
  if (status === 401 && body?.error === 'invalid_api_key') {
    if (!disabled && !inChange) return observations.fail(KIND, '401', what, `a live key was refused: ${body.message}`);
    return observations.count(KIND, '401 (key disabled)');
  }
  observations.fail(KIND, `${status}`, what, `HTTP ${status}: ${text.slice(0, 300)}`);
}

/** Drives every slot until `until` (performance.now() ms); resolves when the last call has been answered. */
export async function driveKeys(
  mcpUrl: string,
  slots: KeySlot[],
  until: number,
  observations: Observations,
): Promise<void> {
  const pending = new Set<Promise<void>>();
  await Promise.all(
    slots.map(async (slot, index) => {
      // Spread the keys' first calls over one second, so they do not all fire on the same tick.
      let next = performance.now() + (index * 1000) / slots.length;
      while (next < until) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
        if (slot.inFlight < MAX_IN_FLIGHT_PER_KEY) {
          slot.inFlight++;
          const call = callOnce(mcpUrl, slot, observations).finally(() => {
            slot.inFlight--;
            pending.delete(call);
          });
          pending.add(call);
        } else {
          observations.count(KIND, 'not sent (8 calls of the key in flight)');
        }
        next += 1000 / (slot.ratePerSecond * OVERDRIVE);
      }
    }),
  );
  await Promise.all(pending);
}
