'use client';
/** Successes and failures per quota day over the last 7 days, stacked. */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DayUsage } from '@/lib/usage/queries.ts';
import { OUTCOME_COLORS } from './chart-colors.ts';

/** "2026-11-26" → "11-26": the year only crowds the axis. */
const shortDay = (day: string) => day.slice(5);

export function TrendChart({ trend }: { trend: DayUsage[] }) {
  return (
    <div
      className="chart"
      role="img"
      aria-label="Bar chart of successful and failed calls per day over the last 7 days (the table below has the numbers)"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={trend} margin={{ top: 4, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" tickFormatter={shortDay} />
          <YAxis allowDecimals={false} width={48} />
          <Tooltip />
          <Legend itemSorter={null} />
          <Bar
            dataKey="successes"
            name="Successes"
            stackId="calls"
            fill={OUTCOME_COLORS.successes}
            isAnimationActive={false}
          />
          <Bar
            dataKey="failures"
            name="Failures"
            stackId="calls"
            fill={OUTCOME_COLORS.failures}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
