'use client';
/** Successful, failed and rate-limited calls per quota day over the chosen range, stacked as today's chart. */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount } from '@/lib/portal/format.ts';
import type { DayUsage } from '@/lib/usage/queries.ts';
import { OUTCOME_SERIES, OUTCOME_TOOLTIP } from './outcome-series.ts';

/** "2026-11-26" → "11-26": the year only crowds the axis. */
const shortDay = (day: string) => day.slice(5);

export function TrendChart({ trend }: { trend: DayUsage[] }) {
  return (
    <div
      className="chart"
      role="img"
      aria-label={`Bar chart of successful, failed and rate-limited calls per day, ${trend[0]?.day} to ${trend.at(-1)?.day} (the table below has the numbers)`}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={trend} margin={{ top: 4, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tickFormatter={shortDay} minTickGap={12} />
          <YAxis allowDecimals={false} width={48} tickFormatter={formatCount} />
          <Tooltip {...OUTCOME_TOOLTIP} />
          <Legend itemSorter={null} />
          {OUTCOME_SERIES.map((series) => (
            <Bar key={series.dataKey} {...series} stackId="calls" isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
