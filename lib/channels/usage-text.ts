/**
 * "My key and usage" as chat text: the same KeyReport the portal and `key show` render, cut to what one
 * message may hold. Blocks go in order of what a person needs first (which key, how much quota is left,
 * today's calls, the trend, the last calls); when the next block would not fit, the reply ends with the
 * link to the key's page, where the rest is.
 */
import { formatCount } from '../portal/format.ts';
import type { KeyReport } from '../usage/key-report.ts';
import type { Texts } from './texts.ts';
import type { ReplyLimit } from './types.ts';

const BARS = '▁▂▃▄▅▆▇█';
/** A day without calls, distinct from a day with a few (which still gets the lowest bar). */
const NO_CALLS = '·';

/** The trend as one bar per day, scaled to the busiest day: "·▁▃█▂··". */
export function sparkline(counts: number[]): string {
  const peak = Math.max(0, ...counts);
  return counts
    .map((n) =>
      n === 0 || peak === 0 ? NO_CALLS : BARS[Math.min(BARS.length - 1, Math.floor((n / peak) * (BARS.length - 1)))],
    )
    .join('');
}

/** "2026-11-27 14:03 UTC" → "11-27 14:03 UTC": the year is plain from context in a chat. */
const shortUtc = (iso: string) => `${iso.slice(5, 10)} ${iso.slice(11, 16)} UTC`;

/** The blocks of one key's report, most needed first; `head` is always shown. */
export function keyBlocks(report: KeyReport, t: Texts): { head: string; details: string[] } {
  const head = [
    t.keyLine(report.display, report.name, report.tier),
    t.quota(
      formatCount(report.usedToday),
      formatCount(report.dailyQuota),
      formatCount(report.remainingToday),
      shortUtc(report.quotaResetsAt),
    ),
    t.limits(t.rate(report.ratePerSecond), t.expires(report.expiresAt ? report.expiresAt.slice(0, 10) : null)),
  ].join('\n');
  const called = report.today.filter((u) => u.successes + u.failures > 0);
  const today = called.length
    ? [t.todayHeading, ...called.map((u) => t.toolLine(u.tool, u.successes, u.failures))].join('\n')
    : t.noCallsToday;
  const perDay = report.trend.map((d) => d.successes + d.failures);
  const peak = Math.max(0, ...perDay);
  const trend = t.trend(
    report.trend.length,
    sparkline(perDay),
    formatCount(perDay.reduce((a, b) => a + b, 0)),
    formatCount(peak),
  );
  const calls = report.lastCalls.length
    ? [
        t.lastCallsHeading,
        ...report.lastCalls.map(
          (c) =>
            `${c.createdAt.slice(5, 10)} ${c.createdAt.slice(11, 19)} ${c.tool} ${callOutcome(c.outcome, c.errorCode)} ${Math.round(c.latencyMs)} ms`,
        ),
      ].join('\n')
    : t.noCalls;
  return { head, details: [today, trend, calls] };
}

function callOutcome(outcome: string, errorCode: string | null): string {
  if (outcome === 'success') return '✓';
  return `✗ ${errorCode ?? outcome}`;
}

/**
 * Joins blocks under the limit, each block whole or not at all, stopping at the first that does not fit,
 * then the closing line (the link to the rest), whose room is kept first so it is never the part cut.
 */
export function fitBlocks(blocks: string[], closing: string | null, limit: ReplyLimit): string {
  const separator = '\n\n';
  const reserve = closing ? limit.measure(separator + closing) : 0;
  const kept: string[] = [];
  for (const block of blocks) {
    if (limit.measure([...kept, block].join(separator)) + reserve > limit.max) break;
    kept.push(block);
  }
  return [...kept, ...(closing ? [closing] : [])].join(separator);
}
