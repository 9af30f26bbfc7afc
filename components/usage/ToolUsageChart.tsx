'use client';
/** Today's calls per tool as stacked horizontal bars (tool names are long, so they sit on the vertical axis). */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount } from '@/lib/portal/format.ts';
import type { ToolUsage } from '@/lib/usage/queries.ts';
import { OUTCOME_SERIES, OUTCOME_TOOLTIP } from './outcome-series.ts';

export function ToolUsageChart({ today }: { today: ToolUsage[] }) {
  const height = 90 + today.length * 44;
  return (
    <div
      className="chart"
      style={{ height }}
      role="img"
      aria-label="Bar chart of today's calls per tool: successes, failures and rate-limited calls (the table above has the numbers)"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={today} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 4 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" allowDecimals={false} tickFormatter={formatCount} />
          <YAxis type="category" dataKey="tool" width={170} tick={{ fontSize: 11 }} />
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
