/**
 * Calls today and over a range side by side, one row per key or per tool, with a totals row: each period
 * is a column group of successes, failures and rate-limited calls.
 */
import type { ReactNode } from 'react';
import { ScrollRegion } from '@/components/ScrollRegion.tsx';
import { formatCount } from '@/lib/portal/format.ts';
import type { CallCounts, TodayAndRange } from '@/lib/usage/owner-usage.ts';

export interface SummaryRow extends TodayAndRange {
  key: string;
  label: ReactNode;
  /** A second column after the label (a key's status). */
  detail?: ReactNode;
}

const OUTCOMES = ['Successes', 'Failures', 'Rate-limited'] as const;

function Counts({ counts }: { counts: CallCounts }) {
  return (
    <>
      <td className="num">{formatCount(counts.successes)}</td>
      <td className="num">{formatCount(counts.failures)}</td>
      <td className="num">{formatCount(counts.rateLimited)}</td>
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
  return (
    <ScrollRegion label={caption}>
      <table>
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
              {detailHeading && <td>{row.detail}</td>}
              <Counts counts={row.today} />
              <Counts counts={row.range} />
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={labelColumns}>
              Total
            </th>
            <Counts counts={total.today} />
            <Counts counts={total.range} />
          </tr>
        </tfoot>
      </table>
    </ScrollRegion>
  );
}
