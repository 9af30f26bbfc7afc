/**
 * Calls today and over a range side by side, one row per key or per tool, with a totals row: each period
 * is a column group of successes, failures and rate-limited calls. On a phone each row is a card with
 * every count labelled (usage.css), so the numbers are on the screen beside the name.
 */
import type { ReactNode } from 'react';
import { ScrollRegion } from '@/components/ScrollRegion.tsx';
import { formatCount } from '@/lib/portal/format.ts';
import type { CallCounts, TodayAndRange } from '@/lib/usage/owner-usage.ts';

interface SummaryRow extends TodayAndRange {
  key: string;
  label: ReactNode;
  /** A second column after the label (a key's status). */
  detail?: ReactNode;
}

const OUTCOMES = ['Successes', 'Failures', 'Rate-limited'] as const;

/** `period` names the column group in each cell's label, which a card shows in place of the headers. */
function Counts({ counts, period }: { counts: CallCounts; period: string }) {
  return (
    <>
      <td className="num" data-label={`${period}: successes`}>
        {formatCount(counts.successes)}
      </td>
      <td className="num" data-label={`${period}: failures`}>
        {formatCount(counts.failures)}
      </td>
      <td className="num" data-label={`${period}: rate-limited`}>
        {formatCount(counts.rateLimited)}
      </td>
    </>
  );
}

export function UsageSummaryTable({
  caption,
  rowHeading,
  detailHeading,
  rangeDays,
  rows,
  total,
}: {
  caption: string;
  rowHeading: string;
  detailHeading?: string;
  rangeDays: number;
  rows: SummaryRow[];
  total: TodayAndRange;
}) {
  const labelColumns = detailHeading ? 2 : 1;
  const range = `${rangeDays} days`;
  return (
    <ScrollRegion label={caption}>
      <table className="usage-summary">
        <caption className="visually-hidden">{caption}</caption>
        <colgroup span={labelColumns} />
        <colgroup span={3} />
        <colgroup span={3} />
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>
              {rowHeading}
            </th>
            {detailHeading && (
              <th scope="col" rowSpan={2}>
                {detailHeading}
              </th>
            )}
            <th scope="colgroup" colSpan={3}>
              Today (calls)
            </th>
            <th scope="colgroup" colSpan={3}>
              Last {rangeDays} days (calls)
            </th>
          </tr>
          <tr>
            {[...OUTCOMES, ...OUTCOMES].map((outcome, i) => (
              <th key={`${outcome}-${i < 3 ? 'today' : 'range'}`} scope="col" className="num">
                {outcome}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.label}</th>
              {detailHeading && <td className="detail">{row.detail}</td>}
              <Counts counts={row.today} period="Today" />
              <Counts counts={row.range} period={range} />
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={labelColumns}>
              Total
            </th>
            <Counts counts={total.today} period="Today" />
            <Counts counts={total.range} period={range} />
          </tr>
        </tfoot>
      </table>
    </ScrollRegion>
  );
}
