/** Calls counted by outcome, one row per tool or per day, with an optional totals row. */
import type { ReactNode } from 'react';
import { ScrollRegion } from '@/components/ScrollRegion.tsx';
import { formatCount } from '@/lib/portal/format.ts';

interface CallCounts {
  successes: number;
  failures: number;
  rateLimited: number;
}

interface CallCountsRow extends CallCounts {
  key: string;
  label: ReactNode;
}

function Counts({ counts }: { counts: CallCounts }) {
  return (
    <>
      <td className="num">{formatCount(counts.successes)}</td>
      <td className="num">{formatCount(counts.failures)}</td>
      <td className="num">{formatCount(counts.rateLimited)}</td>
    </>
  );
}

export function CallCountsTable({
  caption,
  rowHeading,
  rows,
  total,
}: {
  caption: string;
  rowHeading: string;
  rows: CallCountsRow[];
  total?: { label: string } & CallCounts;
}) {
  return (
    <ScrollRegion label={caption}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{rowHeading}</th>
            <th scope="col" className="num">
              Successes
            </th>
            <th scope="col" className="num">
              Failures
            </th>
            <th scope="col" className="num">
              Rate-limited
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.label}</th>
              <Counts counts={row} />
            </tr>
          ))}
        </tbody>
        {total && (
          <tfoot>
            <tr>
              <th scope="row">{total.label}</th>
              <Counts counts={total} />
            </tr>
          </tfoot>
        )}
      </table>
    </ScrollRegion>
  );
}
