/**
 * The usage of one key: quota and limits, today's calls per tool (table and chart), the trend over the
 * chosen range (7, 30 or 90 days) with its call log as CSV, the failures by error code, and the last calls. Shared by the developer's key page and the support console; it only renders a
 * KeyReport, so the caller decides who may see it. No hooks: it renders on the server or inside
 * LiveKeyUsage alike.
 */
import { QuotaMeter } from '@/components/QuotaMeter.tsx';
import { formatCalls, formatCount, formatRate, formatRelative, formatUtc } from '@/lib/portal/format.ts';
import type { KeyReport } from '@/lib/usage/key-report.ts';
import { trendSince } from '@/lib/usage/range.ts';
import { CallLogExport } from './CallLogExport.tsx';
import { FailureCodesTable } from './FailureCodesTable.tsx';
import { LastCallsTable } from './LastCallsTable.tsx';
import { RangeChoice } from './RangeChoice.tsx';
import { ToolUsageChart } from './ToolUsageChart.tsx';
import { ToolUsageTable } from './ToolUsageTable.tsx';
import { TrendChart } from './TrendChart.tsx';
import { TrendTable } from './TrendTable.tsx';
import './usage.css';

/** `callLogCsv`: the key's CSV export route, which checks who may read it as the panels' JSON route does. */
export function KeyUsagePanels({ report, callLogCsv }: { report: KeyReport; callLogCsv: string }) {
  const trend = trendSince(report.trend, report.startedOn);
  const resets = `${formatUtc(report.quotaResetsAt)} (${formatRelative(report.quotaResetsAt)})`;
  const quotaReached = report.remainingToday === 0;
  return (
    <div className="usage-panels">
      {quotaReached && (
        <p className="alert error" suppressHydrationWarning>
          <strong>Daily quota reached:</strong> resets at {resets}. Until then /mcp answers tool calls with 429.
        </p>
      )}

      <section className="panel">
        <h2>Quota today</h2>
        <div className="grid">
          <div className="stat">
            <span className="label">Used of the daily quota</span>
            <QuotaMeter used={report.usedToday} quota={report.dailyQuota} />
          </div>
          <div className="stat">
            <span className="label">Remaining today</span>
            <span className="value">{formatCalls(report.remainingToday)}</span>
          </div>
          <div className="stat">
            <span className="label">Quota resets</span>
            <span className="value">{formatUtc(report.quotaResetsAt)}</span>
            <span className="muted" suppressHydrationWarning>
              {formatRelative(report.quotaResetsAt)}
            </span>
          </div>
          <div className="stat">
            <span className="label">Last call</span>
            {report.lastUsedAt ? (
              <>
                <span className="value" suppressHydrationWarning>
                  {formatRelative(report.lastUsedAt)}
                </span>
                <time className="muted" dateTime={report.lastUsedAt}>
                  {formatUtc(report.lastUsedAt, { seconds: true })}
                </time>
              </>
            ) : (
              <span className="value">never</span>
            )}
          </div>
          <div className="stat">
            <span className="label">Per-second limit</span>
            <span className="value">{formatRate(report.ratePerSecond)}</span>
          </div>
        </div>
        <p className="muted">
          Successful and failed calls count against the {formatCalls(report.dailyQuota)}/day quota; calls refused as
          rate-limited do not.
        </p>
        {report.lineageKeys > 1 && (
          <p className="muted">
            This key shares one quota with the {formatCount(report.lineageKeys - 1)} other
            {report.lineageKeys > 2 ? ' keys' : ' key'} of its reissue chain: reissuing a key gives it a new secret, not
            a new allowance. The numbers on this page include the calls made with every secret of the chain.
          </p>
        )}
      </section>

      <section className="panel">
        <h2>Today&apos;s calls by tool</h2>
        {report.today.length === 0 ? (
          <p className="empty">No calls today yet. Calls appear here within seconds.</p>
        ) : (
          <>
            <ToolUsageTable today={report.today} />
            <ToolUsageChart today={report.today} />
          </>
        )}
      </section>

      <section className="panel">
        <div className="panel-head">
          <h2>Last {report.range.days} days</h2>
          <RangeChoice current={report.range.days} />
        </div>
        {trend.length < report.trend.length && (
          <p className="muted">
            From {trend[0].day}, the day this key{report.lineageKeys > 1 ? '’s first secret' : ''} was made: there were
            no calls to count before it.
          </p>
        )}
        <TrendChart trend={trend} />
        <details>
          <summary>The last {report.range.days} days as a table</summary>
          <TrendTable trend={trend} />
        </details>
        <CallLogExport href={callLogCsv} range={report.range} />
      </section>

      <section className="panel">
        <h2>Failures by error code</h2>
        <FailureCodesTable report={report} />
      </section>

      <section className="panel">
        <h2>Last 10 calls</h2>
        {report.lastCalls.length === 0 ? (
          <p className="empty">No calls with this key yet.</p>
        ) : (
          <LastCallsTable calls={report.lastCalls} />
        )}
      </section>
    </div>
  );
}
