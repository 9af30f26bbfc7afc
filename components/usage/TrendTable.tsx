/** The 7-day trend as a table: the chart's numbers for screen readers and anyone who wants them exact. */
import type { DayUsage } from '@/lib/usage/queries.ts';
import { CallCountsTable } from './CallCountsTable.tsx';

export function TrendTable({ trend }: { trend: DayUsage[] }) {
  return (
    <CallCountsTable
      caption="Calls per day"
      rowHeading="Day"
      rows={trend.map((d) => ({ ...d, key: d.day, label: d.day }))}
    />
  );
}
