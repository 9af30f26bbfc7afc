/**
 * The soak's verdict, kept apart from the measuring so it can be tested: its three criteria
 * (zero unexpected errors, exact quotas, RSS within 20% of where it started after warm-up), judged from
 * what the load generator saw and what the server recorded.
 */

/**
 * What the load generator saw for one allowance: a planned key and every key that reissuing it made
 * (a successor shares its predecessor's daily quota, so they are judged as one).
 */
export interface KeyTally {
  /** The allowance's keys, oldest first: a reissue adds one. */
  keyIds: string[];
  /** e.g. "free 17", "quota 3": which group of the plan the key belongs to. */
  label: string;
  /** The daily quotas the key had during the run, oldest first (more than one after a settings change). */
  quotas: number[];
  /** tools/call answered 200 (a tool result, successful or not: both are admitted calls). */
  admitted: number;
  /** tools/call answered 429, by the answer's reason. */
  refused: { rate_per_second: number; daily_quota: number };
  /**
   * Calls that got no answer (network error or timeout: unexpected errors in their own right). The
   * server may or may not have admitted and recorded them, so they widen the quota check by as many.
   */
  unanswered: number;
  /** A daily_quota refusal of a call sent after the key's last settings change had been saved. */
  quotaRefusedUnderFinalQuota: boolean;
}

/** What the usage tables hold for one key (or, summed, for an allowance) at the end. */
export interface RecordedUsage {
  /** DailyUsage successes + failures. */
  admitted: number;
  /** DailyUsage rateLimited. */
  rateLimited: number;
  /** CallLog rows that are not rate_limited. */
  callLogAdmitted: number;
}

export interface QuotaMismatch {
  keyIds: string[];
  label: string;
  problem: string;
}

const NOTHING_RECORDED: RecordedUsage = { admitted: 0, rateLimited: 0, callLogAdmitted: 0 };

/** An allowance's recorded usage: the sum over its keys. */
export function allowanceUsage(keyIds: string[], recorded: Map<string, RecordedUsage>): RecordedUsage {
  const sum = { ...NOTHING_RECORDED };
  for (const keyId of keyIds) {
    const usage = recorded.get(keyId) ?? NOTHING_RECORDED;
    sum.admitted += usage.admitted;
    sum.rateLimited += usage.rateLimited;
    sum.callLogAdmitted += usage.callLogAdmitted;
  }
  return sum;
}

/**
 * Every way one allowance's numbers can disagree. Every answered call is recorded once (200s = recorded
 * admitted calls, in both tables; 429s = recorded refusals; unanswered calls may be either or
 * neither); nothing is admitted beyond the highest quota the allowance had, whatever its reissues; and
 * an allowance refused for its quota had used exactly that quota, not less.
 */
export function quotaProblems(tally: KeyTally, recorded: RecordedUsage = NOTHING_RECORDED): string[] {
  const problems: string[] = [];
  const refusals = tally.refused.rate_per_second + tally.refused.daily_quota;
  const finalQuota = tally.quotas.at(-1)!;
  const within = (count: number, answered: number) => count >= answered && count <= answered + tally.unanswered;
  const unanswered = tally.unanswered ? ` (and ${tally.unanswered} unanswered)` : '';
  if (!within(recorded.admitted, tally.admitted)) {
    problems.push(
      `${tally.admitted} calls answered 200${unanswered}, but the daily totals record ${recorded.admitted} admitted calls`,
    );
  }
  if (recorded.callLogAdmitted !== recorded.admitted) {
    problems.push(`the call log has ${recorded.callLogAdmitted} admitted calls, the daily totals ${recorded.admitted}`);
  }
  if (!within(recorded.rateLimited, refusals))
    problems.push(
      `${refusals} calls answered 429${unanswered}, but ${recorded.rateLimited} are recorded as rate-limited`,
    );
  if (recorded.admitted > Math.max(...tally.quotas)) {
    problems.push(`${recorded.admitted} calls admitted, beyond the daily quota of ${Math.max(...tally.quotas)}`);
  }
  if (tally.quotaRefusedUnderFinalQuota && recorded.admitted !== finalQuota) {
    problems.push(`refused for its daily quota of ${finalQuota} after ${recorded.admitted} admitted calls`);
  }
  return problems;
}

export interface RssSample {
  /** ms since the load started. */
  atMs: number;
  rssMb: number;
}

export interface RssCheck {
  /** Median of the first three samples after warm-up. */
  afterWarmupMb: number;
  /** Median of the last three samples. */
  endMb: number;
  maxMb: number;
  /** (end − after warm-up) / after warm-up, in percent. */
  changePercent: number;
}

const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Null when there are fewer than six samples after warm-up (too short a run to say anything). */
export function rssCheck(samples: RssSample[], warmupMs: number): RssCheck | null {
  const after = samples.filter((s) => s.atMs >= warmupMs).map((s) => s.rssMb);
  if (after.length < 6) return null;
  // Medians of three, so a single reading taken just before a full collection does not decide it.
  const afterWarmupMb = medianOf(after.slice(0, 3));
  const endMb = medianOf(after.slice(-3));
  return {
    afterWarmupMb,
    endMb,
    maxMb: Math.max(...after),
    changePercent: Math.round(((endMb - afterWarmupMb) / afterWarmupMb) * 1000) / 10,
  };
}

export const RSS_TOLERANCE_PERCENT = 20;

export interface UnexpectedError {
  /** e.g. "tools/call", "page /keys", "support disable". */
  what: string;
  problem: string;
}

export interface Criterion {
  name: string;
  pass: boolean;
  detail: string;
}

export interface Verdict {
  criteria: Criterion[];
  quotaMismatches: QuotaMismatch[];
  rss: RssCheck | null;
  pass: boolean;
}

export function judge(input: {
  unexpected: UnexpectedError[];
  tallies: KeyTally[];
  recorded: Map<string, RecordedUsage>;
  rssSamples: RssSample[];
  warmupMs: number;
}): Verdict {
  const quotaMismatches = input.tallies.flatMap((tally) =>
    quotaProblems(tally, allowanceUsage(tally.keyIds, input.recorded)).map((problem) => ({
      keyIds: tally.keyIds,
      label: tally.label,
      problem,
    })),
  );
  const exhausted = input.tallies.filter((t) => t.quotaRefusedUnderFinalQuota).length;
  const rss = rssCheck(input.rssSamples, input.warmupMs);
  const criteria: Criterion[] = [
    {
      name: 'zero unexpected errors',
      pass: input.unexpected.length === 0,
      detail: `${input.unexpected.length} unexpected`,
    },
    {
      name: 'exact quotas',
      // A soak in which no key reached its quota would not have tested the quota at all.
      pass: quotaMismatches.length === 0 && exhausted > 0,
      detail: `${input.tallies.length} allowances checked (${input.tallies.reduce((n, t) => n + t.keyIds.length, 0)} keys), ${exhausted} used up their quota, ${quotaMismatches.length} mismatches`,
    },
    {
      name: `RSS within ${RSS_TOLERANCE_PERCENT}% of where it started after warm-up`,
      pass: rss !== null && Math.abs(rss.changePercent) <= RSS_TOLERANCE_PERCENT,
      detail: rss
        ? `${rss.afterWarmupMb} MB → ${rss.endMb} MB (${rss.changePercent > 0 ? '+' : ''}${rss.changePercent}%), max ${rss.maxMb} MB`
        : 'too few samples after warm-up',
    },
  ];
  return { criteria, quotaMismatches, rss, pass: criteria.every((c) => c.pass) };
}
