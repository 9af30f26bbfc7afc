/**
 * Failed calls per error code, today and over the chosen range, so every failure has its reason, not only
 * those among the last 10 calls. The codes are the ones /mcp answers with (docs/tools.md lists them).
 */
import { ScrollRegion } from '@/components/ScrollRegion.tsx';
import { formatCount } from '@/lib/portal/format.ts';
import type { KeyReport } from '@/lib/usage/key-report.ts';

export function FailureCodesTable({ report }: { report: KeyReport }) {
  const { days, callLogRetentionDays: kept } = report.range;
  const rows = report.failureCodes;
  if (!rows.length) return <p className="empty">No failed calls in the last {days} days.</p>;
  const caption = 'Failed calls by error code';
  return (
    <>
      <ScrollRegion label={caption}>
        <table>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Error code</th>
              <th scope="col" className="num">
                Today
              </th>
              <th scope="col" className="num">
                Last {days} days
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.code}>
                <th scope="row">
                  <code>{row.code}</code>
                </th>
                <td className="num">{formatCount(row.today)}</td>
                <td className="num">{formatCount(row.range)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {days > kept ? (
        <p className="muted">
          Counted from the call log, which keeps each call for {formatCount(kept)} days: the last {days} days column
          covers those.
        </p>
      ) : null}
    </>
  );
}
